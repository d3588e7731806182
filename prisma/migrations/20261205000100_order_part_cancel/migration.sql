-- A store cancels its part of an order while it is still placed: when and why, and what the
-- cancellation paid back (the part's lines and shipping charge) with the payment provider's reference.
ALTER TABLE "order_stores"
  ADD COLUMN "cancelled_at" TIMESTAMPTZ(3),
  ADD COLUMN "cancel_reason" TEXT CHECK ("cancel_reason" IN ('out_of_stock', 'cannot_ship', 'buyer_request', 'other')),
  ADD COLUMN "refund_cents" INTEGER CHECK ("refund_cents" >= 0),
  ADD COLUMN "refund_ref" TEXT,
  ADD CONSTRAINT "order_stores_cancelled_check" CHECK (
    ("status" = 'cancelled') = ("cancelled_at" IS NOT NULL AND "cancel_reason" IS NOT NULL AND "refund_cents" IS NOT NULL AND "refund_ref" IS NOT NULL)
  );
