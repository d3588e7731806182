-- The holder's approvals of agent orders their settings would refuse (orders off, over the
-- per-order or the month's limit): the agent MCP server asks the holder by URL elicitation to
-- open /account/agents/approvals/<id>, where they approve or decline exactly this order (these
-- lines at these prices, this total); the agent's retry then places it once, spending the
-- approval in the order's transaction (lib/agents/approvals.ts).
--
-- `quote_hash` names the priced order (lines, quantities, prices, shipping, total): an approval
-- covers that order and no other, so a quote that changed needs a new one. `reason` is the
-- refusal the approval lifts; `summary` is what the page shows (stores, lines, the month's limit
-- as it stood). At most one open (pending) approval per grant and order: retries reuse it.
CREATE TABLE "agent_approvals" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  "user_id" UUID NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "grant_id" TEXT NOT NULL,
  "quote_hash" TEXT NOT NULL,
  "reason" TEXT NOT NULL,
  "total_cents" INTEGER NOT NULL,
  "currency" TEXT NOT NULL,
  "summary" JSONB NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "decided_at" TIMESTAMPTZ(3),
  "used_at" TIMESTAMPTZ(3),
  CONSTRAINT "agent_approvals_status_check" CHECK ("status" IN ('pending', 'approved', 'declined', 'used')),
  CONSTRAINT "agent_approvals_reason_check" CHECK ("reason" IN ('agentic_purchasing_off', 'per_order_limit_exceeded', 'monthly_limit_exceeded')),
  CONSTRAINT "agent_approvals_total_check" CHECK ("total_cents" >= 0)
);
CREATE INDEX "agent_approvals_grant_quote_idx" ON "agent_approvals" ("grant_id", "quote_hash");
CREATE INDEX "agent_approvals_user_id_idx" ON "agent_approvals" ("user_id", "created_at" DESC);
CREATE UNIQUE INDEX "agent_approvals_one_pending" ON "agent_approvals" ("grant_id", "quote_hash") WHERE "status" = 'pending';
