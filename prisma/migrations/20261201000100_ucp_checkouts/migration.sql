-- A checkout session of a commerce protocol completes into one order per store (the UCP proposal
-- `orders[]`); the storefront's and the buyer API's keep one order with a part per store.
ALTER TABLE "checkout_sessions" ADD COLUMN "split_by_store" BOOLEAN NOT NULL DEFAULT false;

-- What a UCP platform chose on a checkout session that the session itself does not hold
-- (lib/protocols/ucp/): the buyer as UCP describes one, the fulfillment methods with their
-- destinations and selections, the payment instruments shown back (never a credential), and
-- the platform that created it.
CREATE TABLE "ucp_checkouts" (
    "session_id" UUID NOT NULL,
    -- The UCP-Agent profile URL the creating request named (null when it named none).
    "platform" TEXT,
    "currency" CHAR(3) NOT NULL,
    "buyer" JSONB,
    "fulfillment" JSONB,
    "payment" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ucp_checkouts_pkey" PRIMARY KEY ("session_id")
);

ALTER TABLE "ucp_checkouts" ADD CONSTRAINT "ucp_checkouts_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "checkout_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
