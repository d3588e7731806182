import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { config } from "@/lib/config";

/**
 * Key material derived from AUTH_SECRET (HKDF-SHA256), one purpose per `salt` and `info`: every
 * instance of the app derives the same keys and nothing is stored. Changing AUTH_SECRET changes
 * them all (the OAuth ID-token key, the UCP webhook-signing key).
 */
export function derivedKey(salt: string, info: string, length = 32): Buffer {
  return Buffer.from(hkdfSync("sha256", config().authSecret, salt, info, length));
}

/**
 * Encrypts `text` (AES-256-GCM under the key derived for `purpose`) for storage: a copy of the
 * database alone does not reveal it. `v1.<iv>.<ciphertext>.<tag>`, base64url parts.
 */
export function seal(purpose: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey(purpose, "aes-256-gcm"), iv);
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return ["v1", iv, sealed, cipher.getAuthTag()].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The text `seal(purpose, …)` encrypted; throws for anything else (another purpose, a changed AUTH_SECRET). */
export function unseal(purpose: string, sealed: string): string {
  const [version, iv, data, tag] = sealed.split(".");
  if (version !== "v1" || !iv || !data || !tag) throw new Error(`not a sealed ${purpose} value`);
  const decipher = createDecipheriv("aes-256-gcm", derivedKey(purpose, "aes-256-gcm"), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
