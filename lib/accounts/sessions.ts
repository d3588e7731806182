import { db, type DbClient } from "@/lib/db";

/**
 * Ends every session of the account (lib/http/session.ts keeps them as `sessions` rows): its
 * owner pressed "End all sessions", or its password was set anew.
 */
export async function endAllSessions(userId: string, client: DbClient = db()): Promise<number> {
  return (await client.session.deleteMany({ where: { userId } })).count;
}

/** How many live sessions the account has (browsers or devices signed in). */
export function countSessions(userId: string, client: DbClient = db(), now = new Date()): Promise<number> {
  return client.session.count({ where: { userId, expiresAt: { gt: now } } });
}

/** Ends every session of the account but `keepId` (the one making a change). */
export async function endOtherSessions(userId: string, keepId: string | null, client: DbClient = db()): Promise<number> {
  return (await client.session.deleteMany({ where: { userId, ...(keepId ? { id: { not: keepId } } : {}) } })).count;
}
