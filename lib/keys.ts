import { hkdfSync } from "node:crypto";
import { config } from "@/lib/config";

/**
 * Key material derived from AUTH_SECRET (HKDF-SHA256), one purpose per `salt` and `info`: every
 * instance of the app derives the same keys and nothing is stored. Changing AUTH_SECRET changes
 * them all (the OAuth ID-token key, the UCP webhook-signing key).
 */
export function derivedKey(salt: string, info: string, length = 32): Buffer {
  return Buffer.from(hkdfSync("sha256", config().authSecret, salt, info, length));
}
