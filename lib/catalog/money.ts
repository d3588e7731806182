/** The one money formatter: integer cents to a USD display string. */
export function formatCents(cents: number, { whole = false } = {}): string {
  const dollars = cents / 100;
  return whole && Number.isInteger(dollars)
    ? `$${dollars.toLocaleString("en-US")}`
    : `$${dollars.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
