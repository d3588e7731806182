/**
 * The app's event log: one JSON line per event (`level`, `msg`, then the event's fields) on
 * stderr. Stdout carries the request log (lib/http/log.ts) and the outbox's e-mail notices
 * (lib/email/deliver.ts). docs/operations.md quotes these lines; never put card data, secrets or
 * e-mail addresses in them.
 */
export type LogLevel = "info" | "warn" | "error";

export function logEvent(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  process.stderr.write(`${JSON.stringify({ level, msg, ...fields })}\n`);
}
