import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { derivedKey } from "@/lib/keys";

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

const key = () => derivedKey("webhook-secrets", "aes-256-gcm");

/** `v1.<iv>.<ciphertext>.<tag>`, base64url parts. */
export function sealSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return ["v1", iv, sealed, cipher.getAuthTag()].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export function openSecret(sealed: string): string {
  const [version, iv, data, tag] = sealed.split(".");
  if (version !== "v1" || !iv || !data || !tag) throw new Error("not a sealed webhook secret");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
