-- Seller webhooks (lib/seller/webhooks/): a store's endpoints, the events written for them in the
-- transaction of the change they report, and one delivery per (event, endpoint) in the delivery
-- table the commerce platforms' order events already use.
CREATE TABLE "webhook_endpoints" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "store_id" UUID NOT NULL REFERENCES "stores"("id") ON DELETE CASCADE,
  "url" TEXT NOT NULL,
  "description" TEXT,
  "events" TEXT[] NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'enabled' CHECK ("status" IN ('enabled', 'disabled')),
  "disabled_reason" TEXT,
  -- Signing secrets, encrypted with a key derived from AUTH_SECRET (lib/seller/webhooks/secrets.ts).
  "secret" TEXT NOT NULL,
  "previous_secret" TEXT,
  "previous_secret_expires_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("id")
);
CREATE INDEX "webhook_endpoints_store_id_created_at_id_idx" ON "webhook_endpoints" ("store_id", "created_at" DESC, "id" DESC);

CREATE TABLE "webhook_events" (
  "id" UUID NOT NULL,
  "store_id" UUID NOT NULL REFERENCES "stores"("id") ON DELETE CASCADE,
  "type" TEXT NOT NULL,
  -- The payload as sent: `{ type, timestamp, data }`, rendered once in the change's transaction.
  "body" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("id")
);
CREATE INDEX "webhook_events_store_id_created_at_idx" ON "webhook_events" ("store_id", "created_at" DESC);

ALTER TABLE "webhook_deliveries"
  ALTER COLUMN "order_id" DROP NOT NULL,
  ADD COLUMN "event_id" UUID REFERENCES "webhook_events"("id") ON DELETE CASCADE,
  ADD COLUMN "endpoint_id" UUID REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
  ADD COLUMN "replay_of" UUID,
  ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3);
-- A delivery is a platform's order event (ucp, acp) or a store's event to one of its endpoints.
ALTER TABLE "webhook_deliveries"
  DROP CONSTRAINT "webhook_deliveries_channel_check",
  DROP CONSTRAINT "webhook_deliveries_event_type_check",
  ADD CONSTRAINT "webhook_deliveries_kind_check" CHECK (
    ("channel" IN ('ucp', 'acp') AND "event_type" IN ('order_create', 'order_update') AND "order_id" IS NOT NULL)
    OR ("channel" = 'seller' AND "event_id" IS NOT NULL AND "endpoint_id" IS NOT NULL)
  );
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_id_idx" ON "webhook_deliveries" ("endpoint_id", "created_at" DESC, "id" DESC) WHERE "endpoint_id" IS NOT NULL;
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries" ("event_id") WHERE "event_id" IS NOT NULL;
