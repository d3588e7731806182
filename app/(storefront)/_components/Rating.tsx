export function Rating({ avg, count }: { avg: number | null; count: number }) {
  if (avg === null || count === 0) return <span className="muted">No ratings yet</span>;
  return (
    <span className="rating">
      <span aria-hidden="true">★</span> {avg.toFixed(1)}
      <span className="visually-hidden"> out of 5 stars,</span> ({count.toLocaleString("en-US")}
      <span className="visually-hidden"> ratings</span>)
    </span>
  );
}
