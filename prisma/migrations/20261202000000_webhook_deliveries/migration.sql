-- An order event owed to a commerce platform (lib/webhooks/): written in the transaction of the
-- change it reports (an outbox), delivered after commit by a job of the `webhook-delivery` queue
-- (pg-boss, schema `pgboss`). `id` is the event's id as the receiver sees it (UCP `event_id` and
-- `Webhook-Id`, ACP `Request-Id`): every attempt sends it, so receivers can deduplicate.
-- `destination` is the platform: UCP's profile URL, or the SHA-256 of the ACP platform's key.
-- `body` is the payload as first sent; a retry sends the same bytes.
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "order_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "url" TEXT,
    "body" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_status" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_channel_check" CHECK ("channel" IN ('ucp', 'acp')),
    CONSTRAINT "webhook_deliveries_event_type_check" CHECK ("event_type" IN ('order_create', 'order_update')),
    CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed', 'skipped'))
);

CREATE INDEX "webhook_deliveries_order_id_idx" ON "webhook_deliveries"("order_id");

ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
