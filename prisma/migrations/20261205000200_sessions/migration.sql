-- Sessions on the server: the session cookie names a row (`sid`), so signing out, "Sign out
-- everywhere" and an operator's password reset end a session at once, whoever holds a copy of
-- the cookie.
CREATE TABLE "sessions" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  "user_id" UUID NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "expires_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "sessions_user_id_idx" ON "sessions" ("user_id");
