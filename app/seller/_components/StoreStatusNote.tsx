/** A store that is not active says so, and what it means, wherever it is shown. */
export function StoreStatusNote({ status }: { status: "active" | "suspended" | "closed" }) {
  if (status === "active") return null;
  return (
    <p className="notice" data-store-status={status}>
      This store is {status}: its listings are hidden from shoppers and its API keys answer 403 until it is active again.
    </p>
  );
}
