import { createECDH, createHash, createPrivateKey, type KeyObject } from "node:crypto";
import { FlattenedSign } from "jose";
import { derivedKey } from "@/lib/keys";

/**
 * The business's signing key (UCP 2026-01-11, overview.md "signing_keys"; order.md "Webhook
 * Signature Verification"): an ES256 (P-256) key derived from AUTH_SECRET, its public half
 * published in the profile's `signing_keys`. Its `kid` is a digest of the public key, so it
 * changes when the key does.
 */

const P256_ORDER = BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");

interface SigningKey {
  privateKey: KeyObject;
  publicJwk: { kid: string; kty: "EC"; crv: "P-256"; x: string; y: string; use: "sig"; alg: "ES256" };
}

// AUTH_SECRET is read once per process (lib/config.ts), so the key is derived once.
let cached: SigningKey | undefined;

function deriveKey(): SigningKey {
  // A private scalar in [1, n-1]: the derived bytes, drawn again (another counter) in the
  // vanishingly rare case they are not.
  let d: Buffer;
  for (let counter = 0; ; counter++) {
    d = derivedKey("marketplace-ucp", `webhook-signing-key/es256/v1/${counter}`);
    const value = BigInt(`0x${d.toString("hex")}`);
    if (value > BigInt(0) && value < P256_ORDER) break;
  }
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey(); // 0x04 | x | y
  const x = point.subarray(1, 33).toString("base64url");
  const y = point.subarray(33, 65).toString("base64url");
  const privateKey = createPrivateKey({ key: { kty: "EC", crv: "P-256", x, y, d: d.toString("base64url") }, format: "jwk" });
  const kid = `ucp_${createHash("sha256").update(point).digest("base64url").slice(0, 16)}`;
  return { privateKey, publicJwk: { kid, kty: "EC", crv: "P-256", x, y, use: "sig", alg: "ES256" } };
}

function signingKey(): SigningKey {
  return (cached ??= deriveKey());
}

/** The public keys of the profile's `signing_keys`. */
export function publicSigningKeys(): SigningKey["publicJwk"][] {
  return [signingKey().publicJwk];
}

/**
 * A detached JWS over `body` with the unencoded payload option (RFC 7797, `b64: false`): the
 * compact form with its payload left out, `<header>..<signature>`, for `Request-Signature`.
 */
export async function signDetached(body: string): Promise<string> {
  const key = signingKey();
  const jws = await new FlattenedSign(new TextEncoder().encode(body))
    .setProtectedHeader({ alg: "ES256", kid: key.publicJwk.kid, b64: false, crit: ["b64"] })
    .sign(key.privateKey);
  return `${jws.protected}..${jws.signature}`;
}
