-- The OAuth authorization server's storage (oidc-provider's adapter, lib/oauth/adapter.ts): one
-- table for every model it keeps (clients, grants, codes, tokens, sessions, interactions). Ids are
-- stored only as SHA-256 hashes, and no payload holds its own id, so the table gives no usable
-- token or code to whoever reads it.
CREATE TABLE oauth_records (
  model        text NOT NULL,
  id_hash      bytea NOT NULL,
  payload      jsonb NOT NULL,
  -- The grant a code or token belongs to: revoking the grant destroys them all at once.
  grant_id     text,
  -- Secondary look-ups oidc-provider makes: a session by its uid, a device flow by its user code.
  uid          text,
  user_code    text,
  expires_at   timestamptz(3),
  -- Set once, atomically: a code or refresh token is redeemed by exactly one request.
  consumed_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (model, id_hash)
);
CREATE INDEX oauth_records_grant_id_idx ON oauth_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_records_uid_idx ON oauth_records (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_records_user_code_idx ON oauth_records (model, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oauth_records_expires_at_idx ON oauth_records (expires_at) WHERE expires_at IS NOT NULL;

-- An account holder's consent to one agent (an OAuth grant), as /account/agents lists it: the
-- client, the scopes granted, first and last use. Revoking it ends the grant and its tokens.
CREATE TABLE agent_connections (
  grant_id       text PRIMARY KEY,
  user_id        uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  client_id      text NOT NULL,
  client_name    text NOT NULL,
  redirect_host  text NOT NULL,
  scopes         text[] NOT NULL,
  created_at     timestamptz(3) NOT NULL DEFAULT now(),
  first_used_at  timestamptz(3),
  last_used_at   timestamptz(3),
  revoked_at     timestamptz(3)
);
CREATE INDEX agent_connections_user_idx ON agent_connections (user_id, created_at DESC);
