import { RATE_ROWS, RATE_ROWS_MAX } from "@/lib/seller/dashboard/forms";
import type { FormState } from "@/app/_components/forms";
import { dollars } from "./ListingFields";

export interface RateValues {
  region: string;
  service: "standard" | "expedited";
  priceCents: number;
  freeOverCents: number | null;
  minDays: number;
  maxDays: number;
}

/**
 * Name, handling days and a fixed number of rate rows (at least five, two spare when editing);
 * a row left blank is ignored. Amounts are typed in US dollars.
 */
export function TemplateFields({
  state,
  name,
  handlingDays,
  rates,
}: {
  state: FormState;
  name: string;
  handlingDays: number;
  rates: RateValues[];
}) {
  const rowCount = Math.min(RATE_ROWS_MAX, Math.max(RATE_ROWS, rates.length + 2));
  const submittedRows = state.active
    ? Object.keys(state.flash!.values).reduce((max, k) => {
        const m = /^rates\.(\d+)\./.exec(k);
        return m ? Math.max(max, Number(m[1]) + 1) : max;
      }, 0)
    : 0;
  const rows = Array.from({ length: Math.min(RATE_ROWS_MAX, Math.max(rowCount, submittedRows)) }, (_, i) => i);
  return (
    <>
      <fieldset>
        <legend>Template</legend>
        <div className="field-grid">
          <label>
            Name
            <input {...state.field("name")} defaultValue={state.value("name", name)} required maxLength={100} />
          </label>
          <label>
            Handling days (before it ships)
            <input {...state.field("handling_days")} type="number" min={0} max={30} step={1} defaultValue={state.value("handling_days", handlingDays)} required />
          </label>
        </div>
      </fieldset>
      <fieldset>
        <legend>Rates</legend>
        <p className="muted">
          One row per destination and service. Region: a two-letter country code such as US, or * for everywhere else. Amounts in US dollars;
          leave “Free over” blank for never. Blank rows are ignored.
        </p>
        <table className="stack-table rates-table" aria-label="Rates">
          <thead>
            <tr>
              <th scope="col">Region</th>
              <th scope="col">Service</th>
              <th scope="col">Price (US dollars)</th>
              <th scope="col">Free over (US dollars)</th>
              <th scope="col">Min days</th>
              <th scope="col">Max days</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const rate = rates[row];
              const f = (name: string) => `rates.${row}.${name}`;
              return (
                <tr key={row} data-rate-row={row}>
                  <td data-label="Region">
                    <label>
                      <span className="visually-hidden">Rate {row + 1} region</span>
                      <input {...state.field(f("region"))} defaultValue={state.value(f("region"), rate?.region)} maxLength={2} size={3} autoComplete="off" />
                    </label>
                  </td>
                  <td data-label="Service">
                    <label>
                      <span className="visually-hidden">Rate {row + 1} service</span>
                      <select {...state.field(f("service"))} defaultValue={state.value(f("service"), rate?.service ?? "standard")}>
                        <option value="standard">Standard</option>
                        <option value="expedited">Expedited</option>
                      </select>
                    </label>
                  </td>
                  <td data-label="Price (US dollars)">
                    <label>
                      <span className="visually-hidden">Rate {row + 1} price (US dollars)</span>
                      <input {...state.field(f("price"))} defaultValue={state.value(f("price"), rate ? dollars(rate.priceCents) : "")} inputMode="decimal" size={8} maxLength={20} />
                    </label>
                  </td>
                  <td data-label="Free over (US dollars)">
                    <label>
                      <span className="visually-hidden">Rate {row + 1} free over (US dollars)</span>
                      <input
                        {...state.field(f("free_over"))}
                        defaultValue={state.value(f("free_over"), rate ? dollars(rate.freeOverCents) : "")}
                        inputMode="decimal"
                        size={8}
                        maxLength={20}
                      />
                    </label>
                  </td>
                  <td data-label="Min days">
                    <label>
                      <span className="visually-hidden">Rate {row + 1} min days</span>
                      <input {...state.field(f("min_days"))} defaultValue={state.value(f("min_days"), rate?.minDays)} inputMode="numeric" size={4} maxLength={6} />
                    </label>
                  </td>
                  <td data-label="Max days">
                    <label>
                      <span className="visually-hidden">Rate {row + 1} max days</span>
                      <input {...state.field(f("max_days"))} defaultValue={state.value(f("max_days"), rate?.maxDays)} inputMode="numeric" size={4} maxLength={6} />
                    </label>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </fieldset>
    </>
  );
}
