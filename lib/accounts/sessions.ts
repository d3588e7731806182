import type { DbClient } from "@/lib/db";

/**
 * Ends every session of the account (lib/http/session.ts keeps them as `sessions` rows): its
 * owner pressed "End all sessions", or its password was set anew.
 */
export async function endAllSessions(client: DbClient, userId: string): Promise<number> {
  return (await client.session.deleteMany({ where: { userId } })).count;
}

/** How many live sessions the account has (browsers or devices signed in). */
export function countSessions(client: DbClient, userId: string, now = new Date()): Promise<number> {
  return client.session.count({ where: { userId, expiresAt: { gt: now } } });
}

/** Ends every session of the account but `keepId` (the one making a change). */
export async function endOtherSessions(client: DbClient, userId: string, keepId: string | null): Promise<number> {
  return (await client.session.deleteMany({ where: { userId, ...(keepId ? { id: { not: keepId } } : {}) } })).count;
}
