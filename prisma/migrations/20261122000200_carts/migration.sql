-- Cart links (spec 4.4) and the visitor's cart.
-- Tokens are bearer secrets: only their SHA-256 is stored.

CREATE TABLE "cart_links" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "token_hash" BYTEA NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cart_links_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "cart_links_token_hash_key" ON "cart_links"("token_hash");
CREATE INDEX "cart_links_expires_at_idx" ON "cart_links"("expires_at");

-- The accepted lines of a link, with the price the minting client was shown.
CREATE TABLE "cart_link_lines" (
    "link_id" UUID NOT NULL,
    "listing_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "quantity" INTEGER NOT NULL,
    "price_cents" INTEGER NOT NULL,
    CONSTRAINT "cart_link_lines_pkey" PRIMARY KEY ("link_id", "listing_id"),
    CONSTRAINT "cart_link_lines_quantity_check" CHECK ("quantity" BETWEEN 1 AND 99)
);
CREATE INDEX "cart_link_lines_listing_id_idx" ON "cart_link_lines"("listing_id");

-- A cart: anonymous (bound to a cookie whose token is hashed here) or, once accounts exist,
-- an account's; an anonymous cart is merged into the account cart on sign-in.
CREATE TABLE "carts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "token_hash" BYTEA,
    "user_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "carts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "carts_owner_check" CHECK ("token_hash" IS NOT NULL OR "user_id" IS NOT NULL)
);
CREATE UNIQUE INDEX "carts_token_hash_key" ON "carts"("token_hash");
CREATE UNIQUE INDEX "carts_user_id_key" ON "carts"("user_id");
CREATE INDEX "carts_updated_at_idx" ON "carts"("updated_at");

-- One line per offer; price_cents is the price when the line was last added or confirmed, so the
-- cart can say what changed since.
CREATE TABLE "cart_lines" (
    "cart_id" UUID NOT NULL,
    "listing_id" UUID NOT NULL,
    "quantity" INTEGER NOT NULL,
    "price_cents" INTEGER NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cart_lines_pkey" PRIMARY KEY ("cart_id", "listing_id"),
    CONSTRAINT "cart_lines_quantity_check" CHECK ("quantity" BETWEEN 1 AND 99)
);
CREATE INDEX "cart_lines_listing_id_idx" ON "cart_lines"("listing_id");

-- Which links a cart has already taken in, so opening a link again does not add its lines twice.
CREATE TABLE "cart_link_opens" (
    "cart_id" UUID NOT NULL,
    "link_id" UUID NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cart_link_opens_pkey" PRIMARY KEY ("cart_id", "link_id")
);
CREATE INDEX "cart_link_opens_link_id_idx" ON "cart_link_opens"("link_id");

ALTER TABLE "cart_link_lines" ADD CONSTRAINT "cart_link_lines_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "cart_links"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "cart_link_lines" ADD CONSTRAINT "cart_link_lines_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "carts" ADD CONSTRAINT "carts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_cart_id_fkey" FOREIGN KEY ("cart_id") REFERENCES "carts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "cart_link_opens" ADD CONSTRAINT "cart_link_opens_cart_id_fkey" FOREIGN KEY ("cart_id") REFERENCES "carts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "cart_link_opens" ADD CONSTRAINT "cart_link_opens_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "cart_links"("id") ON DELETE CASCADE ON UPDATE CASCADE;
