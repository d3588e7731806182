-- What a shopper typed on /checkout (e-mail, name, address; never a card number or CVC), kept
-- with their cart so that a reload of the page fills it in again (lib/checkout/draft.ts). Placing
-- an order from the cart clears it.
ALTER TABLE "carts" ADD COLUMN "checkout_draft" JSONB;
