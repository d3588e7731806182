-- The stores' audit log (lib/audit/): every change to a store's data by its API keys or its
-- signed-in owners, every key created or revoked, every webhook endpoint change, and every
-- refused attempt at one. A change's event is written in the change's transaction; a refusal's
-- after its transaction rolled back.
CREATE TABLE "audit_events" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  -- No foreign key: its check would share-lock the store's row in every audited write, and
  -- concurrent writes of one store would then share that lock (a MultiXact per row update),
  -- which cost the seller bench's inventory batch 10 to 15 %. Stores are closed, never deleted.
  "store_id" UUID NOT NULL,
  "actor_type" TEXT NOT NULL CHECK ("actor_type" IN ('api_key', 'user', 'operator')),
  -- The key's public id (`mk_live_<key_id>`), the user's id, or null for the operator.
  "actor_id" TEXT,
  -- What a person reads: the key's name, the user's e-mail, "operator".
  "actor_label" TEXT NOT NULL,
  "action" TEXT NOT NULL,
  "target_type" TEXT,
  "target_id" TEXT,
  "outcome" TEXT NOT NULL CHECK ("outcome" IN ('succeeded', 'refused')),
  -- The refusal's error code; null when it succeeded.
  "error_code" TEXT,
  "request_id" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("id")
);
CREATE INDEX "audit_events_store_id_created_at_id_idx" ON "audit_events" ("store_id", "created_at" DESC, "id" DESC);
