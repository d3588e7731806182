-- Accounts, store ownership, store API keys, idempotency records, the listings change feed,
-- magic-link tokens, the development outbox and marketplace settings.

CREATE TYPE "user_role" AS ENUM ('shopper', 'store_owner', 'admin');

-- E-mails are stored lower-cased (lib/accounts normalises them), so the unique index is exact.
ALTER TABLE "users"
  ADD COLUMN "password_hash" TEXT,
  ADD COLUMN "role" "user_role" NOT NULL DEFAULT 'shopper',
  ADD COLUMN "email_verified_at" TIMESTAMPTZ(3);

-- A store may have several owners; a user may own several stores.
CREATE TABLE "store_owners" (
    "store_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "store_owners_pkey" PRIMARY KEY ("store_id", "user_id"),
    CONSTRAINT "store_owners_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE,
    CONSTRAINT "store_owners_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
);
CREATE INDEX "store_owners_user_id_idx" ON "store_owners"("user_id");
INSERT INTO "store_owners" ("store_id", "user_id", "created_at") SELECT "id", "owner_id", "created_at" FROM "stores";
UPDATE "users" u SET "role" = 'store_owner' WHERE EXISTS (SELECT 1 FROM "store_owners" o WHERE o."user_id" = u."id");
ALTER TABLE "stores" DROP CONSTRAINT "stores_owner_id_fkey";
DROP INDEX "stores_owner_id_idx";
ALTER TABLE "stores" DROP COLUMN "owner_id";

-- Store API keys `mk_live_<key_id>.<secret>`: only the SHA-256 of the secret is kept (the secret
-- is 256 random bits, so a fast hash is enough), with its last 4 characters for display.
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "store_id" UUID NOT NULL,
    "key_id" TEXT NOT NULL,
    "secret_hash" BYTEA NOT NULL,
    "last4" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "scopes" TEXT[] NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "api_keys_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE,
    CONSTRAINT "api_keys_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL
);
CREATE UNIQUE INDEX "api_keys_key_id_key" ON "api_keys"("key_id");
CREATE INDEX "api_keys_store_id_created_at_idx" ON "api_keys"("store_id", "created_at" DESC);

-- Idempotency records (decisions.md "Seller API"): one per (caller, key), kept 24 h. `status` and
-- `response` are written in the same transaction as the change they describe.
CREATE TABLE "idempotency_keys" (
    "owner" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "request_hash" BYTEA NOT NULL,
    "status" INTEGER NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("owner", "key")
);
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys"("expires_at");

-- The sync feed (GET /api/v1/listings?updated_since=): every write stamps the id of the writing
-- transaction. The feed hands out only rows whose writer is older than every transaction still
-- open (pg_snapshot_xmin), in (change_seq, id) order, so a writer that commits late can never
-- land behind a client's cursor.
ALTER TABLE "listings" ADD COLUMN "change_seq" BIGINT NOT NULL DEFAULT 0;
CREATE FUNCTION listings_stamp_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_seq := pg_current_xact_id()::text::bigint;
  IF TG_OP = 'UPDATE' THEN
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER listings_stamp_change BEFORE INSERT OR UPDATE ON "listings"
FOR EACH ROW EXECUTE FUNCTION listings_stamp_change();
CREATE INDEX "listings_store_id_change_seq_id_idx" ON "listings"("store_id", "change_seq", "id");
CREATE INDEX "listings_store_id_created_at_id_idx" ON "listings"("store_id", "created_at" DESC, "id" DESC);
DROP INDEX "listings_store_id_updated_at_id_idx";

CREATE INDEX "shipping_templates_store_id_created_at_id_idx" ON "shipping_templates"("store_id", "created_at" DESC, "id" DESC);

-- Sign-in links sent by e-mail: single use, short-lived, only their SHA-256 kept.
CREATE TABLE "login_tokens" (
    "token_hash" BYTEA NOT NULL,
    "email" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "login_tokens_pkey" PRIMARY KEY ("token_hash")
);
CREATE INDEX "login_tokens_expires_at_idx" ON "login_tokens"("expires_at");

-- Outgoing e-mail. In development nothing is sent: the outbox page (/dev/outbox) shows it.
CREATE TABLE "outbox_emails" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "to_address" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "outbox_emails_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "outbox_emails_created_at_idx" ON "outbox_emails"("created_at" DESC);

-- Marketplace settings (`agentic_checkout`, ...), changed on /admin or by the operator command.
CREATE TABLE "settings" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "settings_pkey" PRIMARY KEY ("key")
);
