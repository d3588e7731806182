-- A secret the dashboard shows once (a new API key, a webhook signing secret): the form's post
-- makes it and redirects to a page that reveals it. The secret waits here, encrypted, for that
-- one view: the first view clears it, and an unopened one expires after minutes and is purged.
CREATE TABLE "secret_reveals" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  "user_id" UUID NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "store_id" UUID NOT NULL REFERENCES "stores"("id") ON DELETE CASCADE,
  "kind" TEXT NOT NULL,
  "subject_id" TEXT NOT NULL,
  "secret_sealed" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "consumed_at" TIMESTAMPTZ(3)
);
CREATE INDEX "secret_reveals_expires_at_idx" ON "secret_reveals" ("expires_at");
