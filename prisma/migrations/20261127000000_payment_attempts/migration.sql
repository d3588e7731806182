-- Payment attempts of a checkout that ended without an order (declined, or approved then refunded
-- because the order's transaction failed). Their count for a checkout token is the generation of
-- its next charge reference, `checkout:<token>:<generation>`: a checkout killed between its charge
-- and its commit records nothing, so its retry charges under the same reference and a provider
-- honouring references charges once.
CREATE TABLE "payment_attempts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "checkout_token" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "payment_attempts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payment_attempts_outcome_check" CHECK ("outcome" IN ('declined', 'refunded'))
);
CREATE INDEX "payment_attempts_checkout_token_idx" ON "payment_attempts"("checkout_token");
