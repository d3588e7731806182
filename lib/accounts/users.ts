import type { DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from "./password";

export type Role = "shopper" | "store_owner" | "admin";
export const ROLES: readonly Role[] = ["shopper", "store_owner", "admin"];

const EMAIL = /^[^\s@\u0000-\u001f\u007f]{1,64}@[^\s@\u0000-\u001f\u007f]{1,255}\.[^\s@\u0000-\u001f\u007f]{2,63}$/;

/** E-mails are compared and stored lower-cased and trimmed. */
export function normaliseEmail(email: string): string {
  const value = email.trim().normalize("NFC").toLowerCase();
  if (value.length > 254 || !EMAIL.test(value)) throw new AppError("parameter_invalid", "Enter a valid e-mail address.", "email");
  return value;
}

export function checkPassword(password: string): string {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new AppError("parameter_invalid", `A password is ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`, "password");
  }
  return password;
}

export function checkName(name: string | undefined): string | null {
  const value = name?.trim() ?? "";
  if (value === "") return null;
  if (value.length > 100 || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new AppError("parameter_invalid", "A name is at most 100 printable characters.", "name");
  }
  return value;
}

/**
 * Creates an account, or sets the password (and name and role, when given) of an existing one:
 * what the operator command `user create` does; its address counts as proven. Returns the user id.
 */
export async function upsertUserWithPassword(
  client: DbClient,
  input: { email: string; password: string; name?: string; role?: Role },
): Promise<{ id: string; created: boolean }> {
  const email = normaliseEmail(input.email);
  const passwordHash = await hashPassword(checkPassword(input.password));
  const name = checkName(input.name);
  const existing = await client.user.findUnique({ where: { email }, select: { id: true, emailVerifiedAt: true } });
  // The operator vouches for the address: an account an operator made or reset counts as proven.
  const now = new Date();
  if (existing) {
    await client.user.update({
      where: { id: existing.id },
      data: { passwordHash, emailVerifiedAt: existing.emailVerifiedAt ?? now, ...(name ? { name } : {}), ...(input.role ? { role: input.role } : {}) },
    });
    return { id: existing.id, created: false };
  }
  const user = await client.user.create({ data: { email, passwordHash, name, role: input.role ?? "shopper", emailVerifiedAt: now } });
  return { id: user.id, created: true };
}

/** Makes a user an owner of a store (idempotent); a shopper becomes a store owner. */
export async function addStoreOwner(client: DbClient, userId: string, storeId: string): Promise<void> {
  await client.storeOwner.upsert({
    where: { storeId_userId: { storeId, userId } },
    create: { storeId, userId },
    update: {},
  });
  await client.user.updateMany({ where: { id: userId, role: "shopper" }, data: { role: "store_owner" } });
}

/** The stores a user owns, by name. */
export async function storesOwnedBy(client: DbClient, userId: string) {
  const rows = await client.storeOwner.findMany({
    where: { userId },
    select: { store: { select: { id: true, slug: true, name: true, status: true } } },
    orderBy: { store: { name: "asc" } },
  });
  return rows.map((r) => r.store);
}
