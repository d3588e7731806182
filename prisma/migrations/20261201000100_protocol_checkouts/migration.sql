-- A checkout session of a commerce protocol completes into one order per store (the UCP proposal
-- `orders[]`); the storefront's and the buyer API's keep one order with a part per store.
ALTER TABLE "checkout_sessions" ADD COLUMN "split_by_store" BOOLEAN NOT NULL DEFAULT false;

-- What a commerce protocol's platform chose on a checkout session that the session itself does
-- not hold (lib/protocols/): for UCP the buyer as UCP describes one, the fulfillment methods with
-- their destinations and selections, the payment instruments shown back (never a credential);
-- for ACP the buyer, the fulfillment details and the options chosen per store. `platform` is who
-- created it: UCP's UCP-Agent profile URL, or the SHA-256 of the ACP platform's bearer key.
CREATE TABLE "protocol_checkouts" (
    "session_id" UUID NOT NULL,
    "protocol" TEXT NOT NULL,
    "platform" TEXT,
    "state" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "protocol_checkouts_pkey" PRIMARY KEY ("session_id"),
    CONSTRAINT "protocol_checkouts_protocol_check" CHECK ("protocol" IN ('ucp', 'acp'))
);

ALTER TABLE "protocol_checkouts" ADD CONSTRAINT "protocol_checkouts_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "checkout_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
