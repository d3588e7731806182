-- Agents on behalf of account holders (decisions.md "OAuth, agent MCP and buyer API"): each
-- holder's agent settings on /account/agents, and which OAuth grant placed an agent order.

-- One row per holder who saved the form; a holder without a row has agent orders off and no
-- limits. Limits are whole cents (the form takes dollars), at most $1,000,000.00. Agent orders
-- can only be on with both limits set, and the per-order limit never exceeds the monthly one
-- (lib/agents/settings.ts refuses such a form with a message; these are the second lock).
CREATE TABLE "agent_settings" (
    "user_id" UUID NOT NULL,
    "orders_enabled" BOOLEAN NOT NULL DEFAULT false,
    "per_order_limit_cents" INTEGER,
    "monthly_limit_cents" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "agent_settings_pkey" PRIMARY KEY ("user_id"),
    CONSTRAINT "agent_settings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE,
    CONSTRAINT "agent_settings_per_order_limit_check" CHECK ("per_order_limit_cents" BETWEEN 1 AND 100000000),
    CONSTRAINT "agent_settings_monthly_limit_check" CHECK ("monthly_limit_cents" BETWEEN 1 AND 100000000),
    CONSTRAINT "agent_settings_limits_when_enabled_check" CHECK (
        NOT "orders_enabled" OR ("per_order_limit_cents" IS NOT NULL AND "monthly_limit_cents" IS NOT NULL)
    ),
    CONSTRAINT "agent_settings_per_order_within_monthly_check" CHECK ("per_order_limit_cents" <= "monthly_limit_cents")
);

-- The OAuth grant whose access token placed an agent order (oidc-provider's grant ids are
-- strings; grants live and end in the authorization server's store, so no foreign key). Null for
-- storefront orders.
ALTER TABLE "orders" ADD COLUMN "agent_grant_id" TEXT;
ALTER TABLE "orders" ADD CONSTRAINT "orders_agent_grant_id_check" CHECK ("agent_grant_id" IS NULL OR "placed_via" = 'agent');
-- What each connected agent spent this month (/account/agents).
CREATE INDEX "orders_agent_grant_id_created_at_idx" ON "orders"("agent_grant_id", "created_at") WHERE "agent_grant_id" IS NOT NULL;
