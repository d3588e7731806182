-- The seller orders API (GET /api/v1/orders): a store's part of an order keeps the carrier it
-- shipped with, and gets the listings' sync feed (updated_since): every write stamps the id of the
-- writing transaction and bumps updated_at (the listings' trigger function, which touches only
-- those two columns), and the feed hands out only rows whose writer is older than every
-- transaction still open, in (change_seq, order_id) order.
ALTER TABLE "order_stores" ADD COLUMN "carrier" TEXT;
ALTER TABLE "order_stores" ADD COLUMN "change_seq" BIGINT NOT NULL DEFAULT 0;
CREATE TRIGGER order_stores_stamp_change BEFORE INSERT OR UPDATE ON "order_stores"
FOR EACH ROW EXECUTE FUNCTION listings_stamp_change();
CREATE INDEX "order_stores_store_id_change_seq_order_id_idx" ON "order_stores"("store_id", "change_seq", "order_id");
