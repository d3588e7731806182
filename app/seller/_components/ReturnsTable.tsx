import Link from "next/link";
import { RETURN_STATUS_LABELS } from "@/app/_components/orders";
import { formatCents } from "@/lib/catalog/money";
import { RETURN_MOVES, type DeskReturn, type ReturnMove } from "@/lib/returns";
import { RETURN_REASON_LABELS } from "@/lib/schemas/orders";
import { When } from "@/app/_components/forms";

const MOVE_LABELS: Record<ReturnMove, string> = { approve: "Approve", receive: "Mark received", refund: "Refund", reject: "Reject" };
const MOVE_ORDER: ReturnMove[] = ["approve", "receive", "refund", "reject"];

/** Returns of the owner's stores, each with the buttons of the moves its state allows. */
export function ReturnsTable({ returns, returnTo, showStore }: { returns: DeskReturn[]; returnTo: string; showStore: boolean }) {
  return (
    <table className="stack-table returns-table" aria-label="Returns">
      <thead>
        <tr>
          <th scope="col">Order</th>
          {showStore ? <th scope="col">Store</th> : null}
          <th scope="col">Requested</th>
          <th scope="col">Items</th>
          <th scope="col">Value</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {returns.map((r) => {
          const moves = MOVE_ORDER.filter((m) => (RETURN_MOVES[m].from as readonly string[]).includes(r.return.status));
          const name = `Return of order ${r.order_number} requested ${r.return.created_at.slice(0, 16).replace("T", " ")} UTC (${r.store.name})`;
          return (
            <tr key={r.return.id} data-return={r.return.id} data-return-status={r.return.status}>
              <td data-label="Order">
                <Link href={`/seller/orders/${r.order_number}`} prefetch={false}>
                  {r.order_number}
                </Link>
              </td>
              {showStore ? <td data-label="Store">{r.store.name}</td> : null}
              <td data-label="Requested">
                <When at={r.return.created_at} />
              </td>
              <td data-label="Items">
                <ul className="plain-list">
                  {r.lines.map((l) => (
                    <li key={l.order_line_id}>
                      {l.quantity} × {l.title} <span className="muted">({RETURN_REASON_LABELS[l.reason]})</span>
                    </li>
                  ))}
                </ul>
              </td>
              <td data-label="Value" className="amount">
                {formatCents(r.value_cents)}
                {r.refund_cents !== null ? <span className="muted"> (refunded {formatCents(r.refund_cents)})</span> : null}
              </td>
              <td data-label="Status">
                {RETURN_STATUS_LABELS[r.return.status]}
                {moves.length > 0 ? (
                  <form method="post" action={`/seller/returns/${r.return.id}`} className="inline-form" aria-label={name}>
                    <input type="hidden" name="return_to" value={returnTo} />
                    {moves.map((m) => (
                      <button key={m} type="submit" name="move" value={m} className={m === "reject" ? "danger" : undefined}>
                        {MOVE_LABELS[m]}
                      </button>
                    ))}
                  </form>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
