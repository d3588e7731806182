import type { ReactNode } from "react";
import type { FormFlash } from "@/lib/http/flash";

/**
 * What a form shows after a refused post: the message above it (role="alert") and, on the field
 * it is about, aria-invalid pointing at that message; the values typed come back as defaults.
 */
export class FormState {
  constructor(
    readonly form: string,
    readonly flash: FormFlash | null,
  ) {}

  get active(): boolean {
    return this.flash !== null && this.flash.form === this.form;
  }

  /** The value to show: what was typed when this form was refused, else `fallback`. */
  value(name: string, fallback: string | number | null | undefined = ""): string {
    if (this.active && name in this.flash!.values) return this.flash!.values[name]!;
    return fallback === null || fallback === undefined ? "" : String(fallback);
  }

  checked(name: string, fallback: boolean): boolean {
    if (this.active) return this.flash!.values[name] === "on";
    return fallback;
  }

  get errorId(): string {
    return `${this.form}-error`;
  }

  /** Props of an input: its name, and the error link when the message is about it. */
  field(name: string): { name: string; "aria-invalid"?: true; "aria-describedby"?: string } {
    return this.active && this.flash!.field === name
      ? { name, "aria-invalid": true, "aria-describedby": this.errorId }
      : { name };
  }

  alert(): ReactNode {
    if (!this.active) return null;
    return (
      <p className="form-error" role="alert" id={this.errorId} data-form-error={this.form} data-field={this.flash!.field ?? ""}>
        {this.flash!.message}
      </p>
    );
  }
}

/** A notice after a successful post (`?notice=`), from a fixed list: a URL cannot make up text. */
export function Notice({ notices, notice }: { notices: Record<string, string>; notice: string | undefined }) {
  if (!notice || !Object.hasOwn(notices, notice)) return null;
  return (
    <p className="notice" role="status" data-notice={notice}>
      {notices[notice]}
    </p>
  );
}

/** A date and time the same way everywhere in the dashboard: `2026-11-23 18:40 UTC`. */
export function When({ at }: { at: Date | string | null }) {
  if (!at) return <span className="muted">never</span>;
  const date = typeof at === "string" ? new Date(at) : at;
  const text = `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return <time dateTime={date.toISOString()}>{text}</time>;
}
