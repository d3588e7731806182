import { Prisma, type DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";

/**
 * A holder's agent settings (decisions.md "OAuth, agent MCP and buyer API"): whether agents may
 * place orders for them, and the per-order and monthly spending limits those orders must stay
 * within. Only the signed-in holder changes them (the /account/agents form); no token can, so
 * nothing here is reachable from the buyer API or the agent MCP except the reads.
 *
 * Choices the spec leaves open, also described in the help article "Letting agents place orders":
 * - Turning agent orders on needs both limits ("turned agentic purchasing on with spending
 *   caps"): an agent never buys without a cap. With agent orders off, a limit may be left empty
 *   (or kept, for next time).
 * - A limit is dollars with optional cents (`50`, `49.99`, `$50`), from $0.01 to $1,000,000.00.
 *   Thousands separators (`1,000`), exponents, signs and a third decimal are refused rather than
 *   guessed at.
 * - The per-order limit may not exceed the monthly one (it could never be reached).
 * - "This month" is the calendar month in UTC, and counts the holder's agent-placed orders that
 *   are not cancelled (returned and refunded ones included: the money was spent).
 */

export interface AgentSettingsData {
  orders_enabled: boolean;
  per_order_limit_cents: number | null;
  monthly_limit_cents: number | null;
}

/** What the form posts: the checkbox's value (`on` when ticked) and the limits as typed, in dollars. */
export interface AgentSettingsInput {
  ordersEnabled: boolean | string | undefined;
  perOrderLimit: string | null | undefined;
  monthlyLimit: string | null | undefined;
}

/** $1,000,000.00: the most a limit can be (the column's CHECK says the same). */
export const AGENT_LIMIT_MAX_CENTS = 100_000_000;

/** Form labels, for messages that name the field the way the page does. */
export const AGENT_SETTINGS_LABELS = {
  orders_enabled: "Let agents place orders",
  per_order_limit: "Per-order limit (USD)",
  monthly_limit: "Monthly limit (USD)",
} as const;

const DEFAULTS: AgentSettingsData = { orders_enabled: false, per_order_limit_cents: null, monthly_limit_cents: null };

/** Dollars with at most two decimals, an optional leading `$`; nothing else (no `,`, `e`, sign). */
const DOLLARS = /^\$?([0-9]{1,7})(?:\.([0-9]{1,2}))?$/;
/** Longer than any valid amount: refused before the pattern looks at it. */
const TYPED_MAX = 20;

export async function getAgentSettings(client: DbClient, userId: string): Promise<AgentSettingsData> {
  const row = await client.agentSettings.findUnique({ where: { userId } });
  if (!row) return { ...DEFAULTS };
  return { orders_enabled: row.ordersEnabled, per_order_limit_cents: row.perOrderLimitCents, monthly_limit_cents: row.monthlyLimitCents };
}

/**
 * Saves the holder's settings from the form, all or nothing; a refusal is a 400
 * `parameter_invalid` naming the form field (`orders_enabled`, `per_order_limit`,
 * `monthly_limit`) and changes nothing.
 */
export async function saveAgentSettings(client: DbClient, userId: string, input: AgentSettingsInput): Promise<AgentSettingsData> {
  const ordersEnabled = parseCheckbox(input.ordersEnabled);
  const perOrder = parseLimit(input.perOrderLimit, "per_order_limit");
  const monthly = parseLimit(input.monthlyLimit, "monthly_limit");
  if (ordersEnabled && perOrder === null) {
    throw new AppError("parameter_missing", `${AGENT_SETTINGS_LABELS.per_order_limit}: set a limit to let agents place orders.`, "per_order_limit");
  }
  if (ordersEnabled && monthly === null) {
    throw new AppError("parameter_missing", `${AGENT_SETTINGS_LABELS.monthly_limit}: set a limit to let agents place orders.`, "monthly_limit");
  }
  if (perOrder !== null && monthly !== null && perOrder > monthly) {
    throw new AppError(
      "parameter_invalid",
      `${AGENT_SETTINGS_LABELS.per_order_limit}: it cannot be more than the monthly limit (${dollarsText(monthly)}).`,
      "per_order_limit",
    );
  }
  const data = { ordersEnabled, perOrderLimitCents: perOrder, monthlyLimitCents: monthly };
  await client.agentSettings.upsert({ where: { userId }, create: { userId, ...data }, update: data });
  return { orders_enabled: ordersEnabled, per_order_limit_cents: perOrder, monthly_limit_cents: monthly };
}

/** A checkbox as a browser posts it: absent (off) or `on`; a boolean from code. Anything else is refused. */
function parseCheckbox(value: AgentSettingsInput["ordersEnabled"]): boolean {
  if (value === undefined || value === false) return false;
  if (value === true || value === "on") return true;
  throw new AppError("parameter_invalid", `${AGENT_SETTINGS_LABELS.orders_enabled}: tick the box or leave it empty.`, "orders_enabled");
}

/** Dollars as typed to cents; empty is null. */
function parseLimit(value: string | null | undefined, field: "per_order_limit" | "monthly_limit"): number | null {
  const label = AGENT_SETTINGS_LABELS[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new AppError("parameter_invalid", `${label}: enter an amount in dollars, such as 50 or 49.99.`, field);
  const trimmed = value.trim();
  if (trimmed === "") return null;
  const match = trimmed.length <= TYPED_MAX ? DOLLARS.exec(trimmed) : null;
  if (!match) {
    throw new AppError("parameter_invalid", `${label}: enter an amount in dollars, such as 50 or 49.99 (no commas, at most 2 decimals).`, field);
  }
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (cents < 1 || cents > AGENT_LIMIT_MAX_CENTS) {
    throw new AppError("parameter_invalid", `${label}: enter an amount from $0.01 to ${dollarsText(AGENT_LIMIT_MAX_CENTS)}.`, field);
  }
  return cents;
}

/** `$1,000,000.00`-style text for messages. */
function dollarsText(cents: number): string {
  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A limit as the form shows it, so that saving again gives the same cents: `50`, `49.99`, `1000000`. */
export function limitFieldText(cents: number | null): string {
  if (cents === null) return "";
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, "0")}`;
}

/** The start of this calendar month in UTC, whatever the session's time zone. */
const MONTH_START = Prisma.sql`date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

/**
 * What agents spent for the holder this calendar month (UTC): the totals of their agent-placed
 * orders that are not cancelled. Inside a transaction, `now()` is the transaction's start.
 */
export async function agentSpendThisMonth(client: DbClient, userId: string): Promise<number> {
  const [row] = await client.$queryRaw<Array<{ cents: bigint | number }>>`
    SELECT coalesce(sum(total_cents), 0)::bigint AS cents FROM orders
    WHERE user_id = ${userId}::uuid AND placed_via = 'agent' AND status <> 'cancelled' AND created_at >= ${MONTH_START}`;
  return Number(row?.cents ?? 0);
}

/**
 * The same spend per OAuth grant (each connected agent): grant id to cents this month. Grants
 * that bought nothing this month are absent.
 */
export async function agentSpendByGrant(client: DbClient, userId: string): Promise<Map<string, number>> {
  const rows = await client.$queryRaw<Array<{ grant_id: string; cents: bigint | number }>>`
    SELECT agent_grant_id AS grant_id, sum(total_cents)::bigint AS cents FROM orders
    WHERE user_id = ${userId}::uuid AND placed_via = 'agent' AND agent_grant_id IS NOT NULL
      AND status <> 'cancelled' AND created_at >= ${MONTH_START}
    GROUP BY agent_grant_id`;
  return new Map(rows.map((r) => [r.grant_id, Number(r.cents)]));
}
