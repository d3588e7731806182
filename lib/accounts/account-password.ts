import type { DbClient, PrismaClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { hashPassword, PASSWORD_MAX, verifyPassword } from "./password";
import { endOtherSessions } from "./sessions";
import { checkPassword } from "./users";

/** Whether the account has a password (an account made by a sign-in link has none until it sets one). */
export async function hasPassword(client: DbClient, userId: string): Promise<boolean> {
  const user = await client.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  return Boolean(user?.passwordHash);
}

/**
 * The account page's password form: an account with a password must give it (`current_password`,
 * refused alike when wrong or missing), one without sets its first. The new one follows the
 * registration rules (`password`). Every other session of the account ends; `keepSessionId` (the
 * browser making the change) stays signed in. A password changed meanwhile by another request is
 * refused as a wrong current password, never overwritten unseen.
 */
export async function setAccountPassword(client: PrismaClient, userId: string, input: { current?: string; password?: string }, keepSessionId: string | null): Promise<void> {
  const user = await client.user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
  const wrong = () => new AppError("parameter_invalid", "That is not your current password.", "current_password");
  if (user.passwordHash !== null) {
    const current = input.current ?? "";
    if (current.length === 0 || current.length > PASSWORD_MAX || !(await verifyPassword(current, user.passwordHash))) throw wrong();
  }
  const passwordHash = await hashPassword(checkPassword(input.password ?? ""));
  await client.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id: userId, passwordHash: user.passwordHash }, data: { passwordHash } });
    if (count === 0) throw wrong();
    await endOtherSessions(tx, userId, keepSessionId);
  });
}
