-- Shipping rates keep the order the seller sent them in, and a template holds at most one rate
-- per (region, service): the seller API refuses duplicates, the database makes sure of it.
ALTER TABLE "shipping_rates" ADD COLUMN "position" INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX "shipping_rates_template_id_region_service_key" ON "shipping_rates"("template_id", "region", "service");
