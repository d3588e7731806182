-- Orders, checkout and returns (decisions.md "Orders, checkout and returns"): the buyer's saved
-- addresses and payment methods, orders with their lines and each store's part, the status
-- history, and returns.

CREATE TYPE "order_status" AS ENUM ('placed', 'shipped', 'delivered', 'cancelled');
CREATE TYPE "order_placed_via" AS ENUM ('storefront', 'agent');
CREATE TYPE "return_status" AS ENUM ('requested', 'approved', 'received', 'refunded', 'rejected');
CREATE TYPE "return_reason" AS ENUM ('damaged', 'not_as_described', 'wrong_item', 'no_longer_needed', 'other');

-- A buyer's shipping addresses; at most one is the default.
CREATE TABLE "addresses" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "full_name" TEXT NOT NULL,
    "line1" TEXT NOT NULL,
    "line2" TEXT,
    "city" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "postal_code" TEXT NOT NULL,
    "country" CHAR(2) NOT NULL DEFAULT 'US',
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "addresses_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "addresses_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
);
CREATE INDEX "addresses_user_id_idx" ON "addresses"("user_id");
CREATE UNIQUE INDEX "addresses_one_default_per_user" ON "addresses"("user_id") WHERE "is_default";

-- A buyer's saved payment methods: a reference at the provider and what may be shown (brand,
-- last 4 digits). No card number is stored.
CREATE TABLE "payment_methods" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_ref" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "last4" CHAR(4) NOT NULL,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "payment_methods_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payment_methods_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
);
CREATE INDEX "payment_methods_user_id_idx" ON "payment_methods"("user_id");
CREATE UNIQUE INDEX "payment_methods_one_default_per_user" ON "payment_methods"("user_id") WHERE "is_default";

-- Order numbers `M-10001`, `M-10002`, ...: short, human, never reused.
CREATE SEQUENCE "order_number_seq" START WITH 10001;

CREATE TABLE "orders" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "number" TEXT NOT NULL DEFAULT ('M-' || nextval('order_number_seq')),
    -- Null for a guest's order.
    "user_id" UUID,
    "email" TEXT NOT NULL,
    "status" "order_status" NOT NULL DEFAULT 'placed',
    "placed_via" "order_placed_via" NOT NULL,
    "subtotal_cents" INTEGER NOT NULL,
    "shipping_cents" INTEGER NOT NULL,
    "total_cents" INTEGER NOT NULL,
    "currency" CHAR(3) NOT NULL DEFAULT 'USD',
    -- { full_name, line1, line2, city, state, postal_code, country } as it was at checkout.
    "shipping_address" JSONB NOT NULL,
    "payment_provider" TEXT NOT NULL,
    "payment_ref" TEXT NOT NULL,
    "payment_last4" CHAR(4) NOT NULL,
    -- The checkout form's one-time token, or the idempotency owner+key of an API checkout: a
    -- second submit of the same checkout finds this order instead of placing another.
    "checkout_token" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "orders_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "orders_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL,
    CONSTRAINT "orders_amounts_check" CHECK ("subtotal_cents" >= 0 AND "shipping_cents" >= 0 AND "total_cents" = "subtotal_cents" + "shipping_cents")
);
CREATE UNIQUE INDEX "orders_number_key" ON "orders"("number");
CREATE UNIQUE INDEX "orders_checkout_token_key" ON "orders"("checkout_token");
CREATE INDEX "orders_user_id_created_at_id_idx" ON "orders"("user_id", "created_at" DESC, "id" DESC);
-- Agent spending this month (issue "Agents on behalf of account holders").
CREATE INDEX "orders_user_id_placed_via_created_at_idx" ON "orders"("user_id", "placed_via", "created_at");

-- Each store's part of an order: its shipping charge, and its fulfilment (the store ships and
-- delivers its own lines). The order's status follows its parts.
CREATE TABLE "order_stores" (
    "order_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "status" "order_status" NOT NULL DEFAULT 'placed',
    "shipping_cents" INTEGER NOT NULL,
    "tracking_number" TEXT,
    "shipped_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "order_stores_pkey" PRIMARY KEY ("order_id", "store_id"),
    CONSTRAINT "order_stores_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE,
    CONSTRAINT "order_stores_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id"),
    CONSTRAINT "order_stores_shipping_cents_check" CHECK ("shipping_cents" >= 0)
);
-- The seller desk: a store's orders, newest first.
CREATE INDEX "order_stores_store_id_created_at_order_id_idx" ON "order_stores"("store_id", "created_at" DESC, "order_id" DESC);

-- A line keeps what was bought as it was at the moment of purchase.
CREATE TABLE "order_lines" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "order_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "listing_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "product_slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "store_slug" TEXT NOT NULL,
    "condition" "listing_condition" NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unit_price_cents" INTEGER NOT NULL,
    "line_total_cents" INTEGER NOT NULL,
    CONSTRAINT "order_lines_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "order_lines_order_store_fkey" FOREIGN KEY ("order_id", "store_id") REFERENCES "order_stores"("order_id", "store_id") ON DELETE CASCADE,
    CONSTRAINT "order_lines_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings"("id"),
    CONSTRAINT "order_lines_quantity_check" CHECK ("quantity" BETWEEN 1 AND 99),
    CONSTRAINT "order_lines_total_check" CHECK ("unit_price_cents" >= 0 AND "line_total_cents" = "unit_price_cents" * "quantity")
);
CREATE INDEX "order_lines_order_id_position_idx" ON "order_lines"("order_id", "position");
CREATE INDEX "order_lines_listing_id_idx" ON "order_lines"("listing_id");

-- Status history: the order's own moves (store_id null) and each store's.
CREATE TABLE "order_events" (
    "id" BIGINT GENERATED ALWAYS AS IDENTITY,
    "order_id" UUID NOT NULL,
    "store_id" UUID,
    "status" TEXT NOT NULL,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "order_events_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "order_events_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE
);
CREATE INDEX "order_events_order_id_id_idx" ON "order_events"("order_id", "id");

-- A return holds lines of one store of one order: that store handles it.
CREATE TABLE "returns" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "order_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "status" "return_status" NOT NULL DEFAULT 'requested',
    "refund_cents" INTEGER,
    "refund_ref" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "returns_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "returns_order_store_fkey" FOREIGN KEY ("order_id", "store_id") REFERENCES "order_stores"("order_id", "store_id") ON DELETE CASCADE
);
CREATE INDEX "returns_order_id_idx" ON "returns"("order_id");
CREATE INDEX "returns_store_id_created_at_id_idx" ON "returns"("store_id", "created_at" DESC, "id" DESC);

CREATE TABLE "return_lines" (
    "return_id" UUID NOT NULL,
    "order_line_id" UUID NOT NULL,
    "quantity" INTEGER NOT NULL,
    "reason" "return_reason" NOT NULL,
    CONSTRAINT "return_lines_pkey" PRIMARY KEY ("return_id", "order_line_id"),
    CONSTRAINT "return_lines_return_id_fkey" FOREIGN KEY ("return_id") REFERENCES "returns"("id") ON DELETE CASCADE,
    CONSTRAINT "return_lines_order_line_id_fkey" FOREIGN KEY ("order_line_id") REFERENCES "order_lines"("id") ON DELETE CASCADE,
    CONSTRAINT "return_lines_quantity_check" CHECK ("quantity" >= 1)
);
CREATE INDEX "return_lines_order_line_id_idx" ON "return_lines"("order_line_id");
