import { createHash } from "node:crypto";

/** Weak validator over the representation without its request id, so repeats revalidate. */
export function etagOf(representation: string | Uint8Array): string {
  return `W/"${createHash("sha1").update(representation).digest("base64url")}"`;
}

export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => bare(tag) === bare(etag));
}
