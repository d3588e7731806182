import type { DbClient } from "@/lib/db";
import { seal, unseal } from "@/lib/keys";
import { UUID } from "@/lib/ids";

/**
 * A secret the dashboard shows exactly once (a new API key, a webhook signing secret). The form's
 * post makes it and holds it here, encrypted, for the person who made it; the page the post
 * redirects to reveals it once, which clears it. A reload, a second visit, or a visit after
 * REVEAL_TTL_MS finds it gone ("already shown") and makes nothing. Nothing here logs the secret.
 */
export type RevealKind = "api_key" | "webhook_created" | "webhook_rotated";

export const REVEAL_TTL_MS = 10 * 60 * 1000;
const PURPOSE = "secret-reveals";

export interface RevealOwner {
  userId: string;
  storeId: string;
}

/** Holds `secret` for one view; call it in the transaction that made the secret. Answers the reveal's id. */
export async function holdSecret(client: DbClient, owner: RevealOwner, kind: RevealKind, subjectId: string, secret: string, now = new Date()): Promise<string> {
  // Unopened reveals past their expiry, and shown ones after a day, are of no use to anyone.
  await client.secretReveal.deleteMany({
    where: { OR: [{ expiresAt: { lt: now } , consumedAt: null }, { consumedAt: { lt: new Date(now.getTime() - 24 * 60 * 60 * 1000) } }] },
  });
  const row = await client.secretReveal.create({
    data: { userId: owner.userId, storeId: owner.storeId, kind, subjectId, secretSealed: seal(PURPOSE, secret), expiresAt: new Date(now.getTime() + REVEAL_TTL_MS) },
    select: { id: true },
  });
  return row.id;
}

/**
 * `revealed`: the secret, now cleared from storage; `already_shown`: it was shown before (or
 * expired unseen); null: no such reveal for this person, store and subject (the page is a 404).
 */
export type Reveal = { state: "revealed"; secret: string } | { state: "already_shown" } | null;

/** Reveals the secret held for `subjectId` (the newest, or the one `revealId` names) once. */
export async function revealSecret(client: DbClient, owner: RevealOwner, kind: RevealKind, subjectId: string, revealId?: string): Promise<Reveal> {
  if (revealId !== undefined && !UUID.test(revealId)) return null;
  if (subjectId.length > 100 || subjectId.includes("\u0000")) return null;
  const where = { userId: owner.userId, storeId: owner.storeId, kind, subjectId, ...(revealId ? { id: revealId } : {}) };
  const found = await client.secretReveal.findFirst({ where, orderBy: { createdAt: "desc" }, select: { id: true } });
  if (!found) return null;
  // One statement takes the secret and clears it, so two concurrent views cannot both see it.
  const [taken] = await client.$queryRaw<{ secret_sealed: string }[]>`
    UPDATE secret_reveals AS r SET consumed_at = now(), secret_sealed = NULL
    FROM (SELECT id, secret_sealed FROM secret_reveals WHERE id = ${found.id}::uuid FOR UPDATE) AS old
    WHERE r.id = old.id AND r.consumed_at IS NULL AND r.expires_at > now() AND old.secret_sealed IS NOT NULL
    RETURNING old.secret_sealed`;
  if (!taken) {
    await client.secretReveal.updateMany({ where: { id: found.id, secretSealed: { not: null } }, data: { secretSealed: null } });
    return { state: "already_shown" };
  }
  return { state: "revealed", secret: unseal(PURPOSE, taken.secret_sealed) };
}
