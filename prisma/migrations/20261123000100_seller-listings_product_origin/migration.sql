-- Products described by a seller through the seller API (POST /api/v1/listings with `product`)
-- remember the store that described them: such a product becomes publicly listed when one of its
-- listings is first published (decisions.md "Seller API"), while a catalog product an operator
-- keeps unlisted stays unlisted whatever its listings do.
ALTER TABLE "products" ADD COLUMN "created_by_store_id" UUID;
ALTER TABLE "products" ADD CONSTRAINT "products_created_by_store_id_fkey"
  FOREIGN KEY ("created_by_store_id") REFERENCES "stores"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "products_created_by_store_id_idx" ON "products"("created_by_store_id") WHERE "created_by_store_id" IS NOT NULL;
