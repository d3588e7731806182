import { db } from "@/lib/db";

export interface AgentLimits {
  orders_enabled: boolean;
  per_order_limit_cents: number | null;
  monthly_limit_cents: number | null;
}

/**
 * The holder's agent spending limits, for the consent screen when `checkout` is asked.
 * NOTE (to reconcile): lib/agents/settings.ts (`getAgentSettings`, branch agent-checkout) owns this
 * table and was not on main when this was written; once it is, call it instead. Until then this
 * reads the `agent_settings` table directly, and a database without it reads as "agents may not
 * place orders" (the default of a holder who never saved the form).
 */
export async function readAgentLimits(userId: string): Promise<AgentLimits> {
  const none: AgentLimits = { orders_enabled: false, per_order_limit_cents: null, monthly_limit_cents: null };
  try {
    const rows = await db().$queryRawUnsafe<AgentLimits[]>(
      `SELECT orders_enabled, per_order_limit_cents, monthly_limit_cents FROM agent_settings WHERE user_id = $1::uuid`,
      userId,
    );
    return rows[0] ?? none;
  } catch {
    return none;
  }
}
