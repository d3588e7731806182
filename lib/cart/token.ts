import { createHash, randomBytes } from "node:crypto";

/** A bearer token of 256 random bits, URL- and cookie-safe (43 characters of base64url). */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Whether `value` can be a token newToken() made; anything else is not looked up. */
export function isToken(value: string): boolean {
  return TOKEN.test(value);
}

/** What is stored in place of a token: its SHA-256 (the token has 256 bits, so no salt is needed). */
export function tokenHash(token: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash("sha256").update(token).digest());
}
