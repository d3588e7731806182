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
 */

export interface AgentLimits {
  perOrderLimitCents: number;
  monthlyLimitCents: number;
  /** What the holder's agents spent this calendar month (UTC), cancelled orders aside. */
  spentCents: number;
}

/** The refusal of an agent order of `totalCents` under `limits` with the token's `scopes`; null when it may be placed. */
export function agentTotalRefusal(totalCents: number, limits: AgentLimits, scopes: readonly string[]): AppError | null {
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
  if (!effectiveScopes(scopes).has("checkout")) {
    return new AppError("scope_missing", "The access token lacks the scope 'checkout', which placing an order needs.", undefined, {
      requiredScopes: ["checkout"],
    });
  }
  return null;
}

export interface AgentGate {
  /** Refuses a total the holder's limits or the token's scopes do not allow. */
  checkTotal(totalCents: number, agent: AgentCaller): Promise<void>;
}

/** Takes the holder's lock and refuses right away when agents may not order at all. */
export async function openAgentGate(tx: Tx, userId: string): Promise<AgentGate> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`agent-spend:${userId}`}, 0))`;
  if (!(await getSetting("agentic_checkout", tx))) {
    throw new AppError("agentic_checkout_disabled", "The marketplace does not let agents place orders at the moment.");
  }
  const settings = await getAgentSettings(userId, tx);
  const perOrderLimitCents = settings.per_order_limit_cents;
  const monthlyLimitCents = settings.monthly_limit_cents;
  // Both limits are set whenever orders are on (a CHECK of agent_settings); a row without them counts as off.
  if (!settings.orders_enabled || perOrderLimitCents === null || monthlyLimitCents === null) {
    throw new AppError("agentic_purchasing_off", "The account holder has not let agents place orders (\"Let agents place orders\" on /account/agents).");
  }
  return {
    async checkTotal(totalCents, agent) {
      const spentCents = await agentSpendThisMonth(userId, tx);
      const refusal = agentTotalRefusal(totalCents, { perOrderLimitCents, monthlyLimitCents, spentCents }, agent.scopes);
      if (refusal) throw refusal;
    },
  };
}
