import { ApprovalNeeded, isApprovable, quoteHash, spendApproval, summaryOf, wasDeclined, type PricedOrder } from "@/lib/agents/approvals";
import { agentSpendThisMonth, getAgentSettings } from "@/lib/agents/settings";
import { effectiveScopes } from "@/lib/auth/scopes";
import { formatCents } from "@/lib/catalog/money";
import { AppError } from "@/lib/errors";
import { getSetting } from "@/lib/settings";
import type { AgentCaller, Tx } from "./types";

/**
 * Step "check the agent's limits" (decisions.md, agentic checkout), inside the order's
 * transaction. The holder's lock comes first, so that one holder's agent checkouts run one at a
 * time and each sees what the previous one spent: together they can never pass the monthly
 * limit. Then, each refusal a 403 of its own, in this order: the marketplace switch, the holder's
 * "Let agents place orders" (both right away, `openAgentGate`), then, once the order is priced
 * (`checkTotal`), the per-order limit, what is left of the monthly limit, and last the token's
 * `checkout` scope.
 *
 * The holder may approve one order their settings refuse (lib/agents/approvals.ts): the
 * approval is spent here, in the order's transaction. An agent that can ask its person to open a
 * page (the agent MCP server's URL elicitation: `AgentCaller.askHolder`) gets `ApprovalNeeded`
 * for those refusals, and "Let agents place orders" being off is refused only once the order is
 * priced, so that the holder is asked about a total.
 */

export interface AgentLimits {
  perOrderLimitCents: number;
  monthlyLimitCents: number;
  /** What the holder's agents spent this calendar month (UTC), cancelled orders aside. */
  spentCents: number;
}

/** The refusal of an agent order of `totalCents` under `limits` with the token's `scopes`; null when it may be placed. */
export function agentTotalRefusal(totalCents: number, limits: AgentLimits, scopes: readonly string[]): AppError | null {
  return limitRefusal(totalCents, limits) ?? scopeRefusal(scopes);
}

/** The holder's limits' refusal of a total: per-order first, then what is left of the month. */
function limitRefusal(totalCents: number, limits: AgentLimits): AppError | null {
  if (totalCents > limits.perOrderLimitCents) {
    return new AppError(
      "per_order_limit_exceeded",
      `The order's total, ${formatCents(totalCents)}, is above the holder's per-order limit for agents, ${formatCents(limits.perOrderLimitCents)}.`,
    );
  }
  if (limits.spentCents + totalCents > limits.monthlyLimitCents) {
    const left = Math.max(limits.monthlyLimitCents - limits.spentCents, 0);
    return new AppError(
      "monthly_limit_exceeded",
      `The order's total, ${formatCents(totalCents)}, is above what is left of the holder's monthly limit for agents: ` +
        `${formatCents(left)} of ${formatCents(limits.monthlyLimitCents)} left this month (calendar month, UTC).`,
    );
  }
  return null;
}

function scopeRefusal(scopes: readonly string[]): AppError | null {
  if (effectiveScopes(scopes).has("checkout")) return null;
  return new AppError("scope_missing", "The access token lacks the scope 'checkout', which placing an order needs.", undefined, {
    requiredScopes: ["checkout"],
  });
}

export interface AgentGate {
  /**
   * Refuses an order the holder's settings or the token's scopes do not allow, unless the holder
   * approved exactly this priced order (spent here, once). For an agent that can ask its person
   * (`agent.askHolder`), a refusal the holder could lift is an `ApprovalNeeded`.
   */
  checkTotal(order: PricedOrder): Promise<void>;
}

/**
 * Takes the holder's lock and refuses right away when agents may not order at all: the
 * marketplace switch, then "Let agents place orders" (for an agent that can ask its person, that
 * refusal waits for the order to be priced, so that the holder is asked about a total).
 */
export async function openAgentGate(tx: Tx, userId: string, agent: AgentCaller): Promise<AgentGate> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`agent-spend:${userId}`}, 0))`;
  if (!(await getSetting(tx, "agentic_checkout"))) {
    throw new AppError("agentic_checkout_disabled", "The marketplace does not let agents place orders at the moment.");
  }
  const settings = await getAgentSettings(tx, userId);
  // Both limits are set whenever orders are on (a CHECK of agent_settings); a row without them counts as off.
  const ordersOn = settings.orders_enabled && settings.per_order_limit_cents !== null && settings.monthly_limit_cents !== null;
  const offRefusal = () =>
    new AppError("agentic_purchasing_off", "The account holder has not let agents place orders (\"Let agents place orders\" on /account/agents).");
  if (!ordersOn && !agent.askHolder) throw offRefusal();

  /** Spends the holder's approval of this very order, or refuses (asking the holder, when the agent can). */
  async function liftOrThrow(refusal: AppError, order: PricedOrder, spentCents: number): Promise<void> {
    const reason = refusal.code;
    if (!isApprovable(reason)) throw refusal;
    const hash = quoteHash(order);
    if (await spendApproval(tx, userId, agent.grantId, hash, order.total_cents)) return;
    if (!agent.askHolder) throw refusal;
    if (await wasDeclined(tx, agent.grantId, hash)) {
      throw new AppError(refusal.code, `${refusal.message} The account holder declined this order when asked; it can be asked again in 15 minutes, or for another order.`);
    }
    const limits = { orders_enabled: ordersOn, per_order_limit_cents: settings.per_order_limit_cents, monthly_limit_cents: settings.monthly_limit_cents, spent_cents: spentCents };
    throw new ApprovalNeeded(reason, refusal.message, { hash, total_cents: order.total_cents, currency: order.currency, summary: summaryOf(order, limits) });
  }

  return {
    async checkTotal(order) {
      const spentCents = await agentSpendThisMonth(tx, userId);
      const refusal = ordersOn
        ? limitRefusal(order.total_cents, { perOrderLimitCents: settings.per_order_limit_cents!, monthlyLimitCents: settings.monthly_limit_cents!, spentCents })
        : offRefusal();
      if (refusal) await liftOrThrow(refusal, order, spentCents);
      const missing = scopeRefusal(agent.scopes);
      if (missing) throw missing;
    },
  };
}
