import { randomBytes } from "node:crypto";
import { seal, unseal } from "@/lib/keys";

/**
 * Webhook signing secrets. Unlike API keys, they cannot be stored as hashes: the service signs
 * with them. They are stored encrypted (AES-256-GCM under a key derived from AUTH_SECRET, purpose
 * "webhook-secrets"), so a copy of the database alone does not reveal them, and shown to the
 * seller only in the answer that creates or rotates them.
 */

/** A new secret as Standard Webhooks writes them: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

const PURPOSE = "webhook-secrets";

export function sealSecret(secret: string): string {
  return seal(PURPOSE, secret);
}

export function openSecret(sealed: string): string {
  return unseal(PURPOSE, sealed);
}
