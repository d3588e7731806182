-- Store API keys may expire: from this instant the key answers 401 api_key_expired.
ALTER TABLE "api_keys" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
