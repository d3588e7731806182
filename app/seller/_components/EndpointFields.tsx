import { FormState } from "@/app/_components/forms";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, WEBHOOK_LIMITS, type WebhookEventType } from "@/lib/schemas/seller/webhooks";

/** The fields of a webhook endpoint: its URL, a checkbox per event type with what it reports, a description. */
export function EndpointFields({ state, url, events, description }: { state: FormState; url?: string; events: readonly WebhookEventType[]; description?: string | null }) {
  const invalidEvents = state.active && state.flash!.field === "events" ? { "aria-invalid": true as const, "aria-describedby": state.errorId } : {};
  return (
    <>
      <label>
        Endpoint URL
        <input
          {...state.field("url")}
          type="url"
          inputMode="url"
          defaultValue={state.value("url", url)}
          required
          maxLength={WEBHOOK_LIMITS.urlMax}
          placeholder="https://erp.example.com/hooks/marketplace"
          autoComplete="off"
        />
      </label>
      <fieldset {...invalidEvents}>
        <legend>Events</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="check">
            <input type="checkbox" name={`event.${type}`} defaultChecked={state.checked(`event.${type}`, events.includes(type))} />{" "}
            <span className="check-text">
              <code>{type}</code> <span className="muted">{WEBHOOK_EVENTS[type].when}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <label>
        Description
        <input {...state.field("description")} defaultValue={state.value("description", description)} maxLength={WEBHOOK_LIMITS.descriptionMax} placeholder="Optional: a note for you, such as ERP" autoComplete="off" />
      </label>
    </>
  );
}

/** "Enabled", or "Disabled" and why. */
export function EndpointStatus({ status, reason }: { status: "enabled" | "disabled"; reason: string | null }) {
  if (status === "enabled") return <span className="badge status-active">Enabled</span>;
  return (
    <span>
      <span className="badge status-inactive">Disabled</span>
      {reason ? <span className="muted"> ({reason})</span> : null}
    </span>
  );
}
