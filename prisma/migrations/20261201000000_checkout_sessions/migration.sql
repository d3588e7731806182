-- Checkout sessions (lib/checkout/sessions.ts): what a buyer is about to buy, from a cart or from
-- lines given at once, with the buyer, the address and the payment chosen so far, until it is
-- completed into orders, canceled or expires. Every door checks out through one: the storefront's
-- form and the buyer API make one and complete it in the same transaction.
CREATE TABLE "checkout_sessions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    -- The checkout's key: the storefront form's one-time token, an API's idempotency owner and
    -- key, or a random one. Charge references and payment attempts are keyed by it.
    "token" TEXT NOT NULL,
    "placed_via" "order_placed_via" NOT NULL,
    "user_id" UUID,
    -- A guest's e-mail address; an account holder's is read from the account.
    "email" TEXT,
    "agent_grant_id" TEXT,
    -- Lines come from this cart (at completion, as it stands then) or are `lines` given at once.
    "source" TEXT NOT NULL,
    "cart_id" UUID,
    "lines" JSONB,
    "shipping_address" JSONB,
    -- `saved`: the account's default payment method; `card`: a card number given at completion.
    "payment" TEXT,
    "status" TEXT NOT NULL DEFAULT 'open',
    "cancel_reason" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkout_sessions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "checkout_sessions_status_check" CHECK ("status" IN ('open', 'completed', 'canceled')),
    CONSTRAINT "checkout_sessions_source_check" CHECK (("source" = 'cart' AND "lines" IS NULL) OR ("source" = 'lines' AND "lines" IS NOT NULL AND "cart_id" IS NULL)),
    CONSTRAINT "checkout_sessions_payment_check" CHECK ("payment" IN ('saved', 'card'))
);

CREATE UNIQUE INDEX "checkout_sessions_token_key" ON "checkout_sessions"("token");
CREATE INDEX "checkout_sessions_user_id_idx" ON "checkout_sessions"("user_id");

ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_cart_id_fkey" FOREIGN KEY ("cart_id") REFERENCES "carts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The session an order was completed from (several orders may share one).
ALTER TABLE "orders" ADD COLUMN "checkout_session_id" UUID;
ALTER TABLE "orders" ADD CONSTRAINT "orders_checkout_session_id_fkey" FOREIGN KEY ("checkout_session_id") REFERENCES "checkout_sessions"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "orders_checkout_session_id_idx" ON "orders"("checkout_session_id") WHERE "checkout_session_id" IS NOT NULL;
