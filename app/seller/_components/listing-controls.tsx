/** The moves a listing's state allows (decisions.md "Seller API": the state machine), as buttons. */
export type ListingStatus = "draft" | "active" | "inactive" | "archived";

export const STATUS_LABELS: Record<ListingStatus, string> = {
  draft: "Draft",
  active: "Active",
  inactive: "Inactive",
  archived: "Archived",
};

/** Each button posts `move`: `publish` (draft only) or the status to set. */
const MOVES: Record<ListingStatus, { move: string; label: string }[]> = {
  draft: [{ move: "publish", label: "Publish" }],
  active: [{ move: "inactive", label: "Deactivate" }],
  inactive: [{ move: "active", label: "Activate" }],
  archived: [],
};

export function StatusBadge({ status }: { status: ListingStatus }) {
  return (
    <span className={`badge status-${status}`} data-status={status}>
      {STATUS_LABELS[status]}
    </span>
  );
}

/**
 * Publish / Deactivate / Activate for the listing's state, and Archive (permanent) unless
 * `withArchive` is false. `returnTo` is where the answer leads (a dashboard path).
 */
export function StatusButtons({
  action,
  status,
  returnTo,
  withArchive = true,
  label,
}: {
  action: string;
  status: ListingStatus;
  returnTo: string;
  withArchive?: boolean;
  /** What the listing is called, for the buttons' accessible names in a table of many. */
  label?: string;
}) {
  const moves = [...MOVES[status], ...(withArchive && status !== "archived" ? [{ move: "archived", label: "Archive" }] : [])];
  if (moves.length === 0) return null;
  return (
    <form method="post" action={action} className="inline-form status-form">
      <input type="hidden" name="return_to" value={returnTo} />
      {moves.map(({ move, label: text }) => (
        <button
          key={move}
          type="submit"
          name="move"
          value={move}
          className={move === "archived" ? "danger" : move === "inactive" ? "secondary" : undefined}
          aria-label={label ? `${text} ${label}` : undefined}
          data-move={move}
        >
          {text}
        </button>
      ))}
    </form>
  );
}

/** Sets the quantity in stock; `expected_quantity` makes a stale form fail instead of overwriting. */
export function QuantityForm({
  action,
  quantity,
  returnTo,
  label,
  disabled = false,
}: {
  action: string;
  quantity: number;
  returnTo: string;
  label: string;
  disabled?: boolean;
}) {
  if (disabled) return <span>{quantity.toLocaleString("en-US")}</span>;
  return (
    <form method="post" action={action} className="inline-form quantity-form">
      <input type="hidden" name="return_to" value={returnTo} />
      <input type="hidden" name="expected_quantity" value={quantity} />
      <label>
        <span className="visually-hidden">Quantity of {label}</span>
        <input type="number" name="quantity" min={0} max={1_000_000} step={1} defaultValue={quantity} required className="quantity" />
      </label>
      <button type="submit" className="secondary" aria-label={`Save quantity of ${label}`}>
        Save
      </button>
    </form>
  );
}
