import type { Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/**
 * Locks the account's row until the transaction ends: changes to one account's saved addresses or
 * payment methods take turns, so limits and the one-default rule hold under concurrent posts.
 */
export async function lockUser(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  const rows = isUuid(userId) ? await tx.$queryRaw<unknown[]>`SELECT 1 FROM users WHERE id = ${userId}::uuid FOR UPDATE` : [];
  if (rows.length === 0) throw new AppError("parameter_invalid", "No account has this id.", "user");
}
