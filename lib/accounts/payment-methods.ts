/**
 * A buyer's saved payment methods (decisions.md "Orders, checkout and returns"): a reference at
 * the payment provider and what may be shown (brand, last 4 digits), never a card number. The one
 * method that can be saved today is the built-in provider's test card (`TEST_CARD`); a real
 * provider would add its own way to save one. Changes lock the holder's `users` row first, as
 * addresses do, so the "one default per account" rule holds under concurrent posts.
 */
import type { Prisma, DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { TEST_CARD } from "@/lib/payments";
import { isUuid } from "@/lib/ids";
import { lockUser } from "./tx";

/** A saved payment method as pages show it and checkout charges it. */
export interface SavedPaymentMethod {
  id: string;
  /** The payment provider that charges it (`payment_methods.provider`). */
  provider: string;
  /** The provider's reference of the method (`payment_methods.provider_ref`). */
  provider_ref: string;
  brand: string;
  last4: string;
  is_default: boolean;
}

const SELECT = { id: true, provider: true, providerRef: true, brand: true, last4: true, isDefault: true } as const;

function toSaved(row: { id: string; provider: string; providerRef: string; brand: string; last4: string; isDefault: boolean }): SavedPaymentMethod {
  return { id: row.id, provider: row.provider, provider_ref: row.providerRef, brand: row.brand, last4: row.last4, is_default: row.isDefault };
}

function notFound(): AppError {
  return new AppError("payment_method_not_found", "That payment method is not one of your saved payment methods.");
}

/** The account's payment methods: the default first, then the oldest first. */
export async function listPaymentMethods(client: DbClient, userId: string): Promise<SavedPaymentMethod[]> {
  const rows = await client.paymentMethod.findMany({
    where: { userId },
    select: SELECT,
    orderBy: [{ isDefault: "desc" }, { createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toSaved);
}

/** The account's default payment method, or null when it has none: what checkout charges. */
export async function defaultPaymentMethod(client: DbClient, userId: string): Promise<SavedPaymentMethod | null> {
  if (!isUuid(userId)) return null;
  const row = await client.paymentMethod.findFirst({ where: { userId, isDefault: true }, select: SELECT });
  return row ? toSaved(row) : null;
}

/**
 * Saves the test card on the account (once: saving it again answers the saved one). The account's
 * first payment method becomes its default.
 */
export async function saveTestCard(tx: Prisma.TransactionClient, userId: string): Promise<{ method: SavedPaymentMethod; created: boolean }> {
  await lockUser(tx, userId);
  const saved = await tx.paymentMethod.findFirst({
    where: { userId, provider: TEST_CARD.provider, providerRef: TEST_CARD.providerRef },
    select: SELECT,
  });
  if (saved) return { method: toSaved(saved), created: false };
  const hasDefault = (await tx.paymentMethod.count({ where: { userId, isDefault: true } })) > 0;
  const row = await tx.paymentMethod.create({
    data: {
      userId,
      provider: TEST_CARD.provider,
      providerRef: TEST_CARD.providerRef,
      brand: TEST_CARD.brand,
      last4: TEST_CARD.last4,
      isDefault: !hasDefault,
    },
    select: SELECT,
  });
  return { method: toSaved(row), created: true };
}

/** Makes one of the account's payment methods its default (the one before stops being it). */
export async function setDefaultPaymentMethod(tx: Prisma.TransactionClient, userId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound();
  await lockUser(tx, userId);
  if ((await tx.paymentMethod.count({ where: { id, userId } })) === 0) throw notFound();
  await tx.paymentMethod.updateMany({ where: { userId, isDefault: true, NOT: { id } }, data: { isDefault: false } });
  await tx.paymentMethod.updateMany({ where: { id, userId }, data: { isDefault: true } });
}

/**
 * Removes one of the account's payment methods. When it was the default, the most recently saved
 * of the others becomes the default (none when it was the last). Past orders keep what they were
 * paid with.
 */
export async function removePaymentMethod(tx: Prisma.TransactionClient, userId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound();
  await lockUser(tx, userId);
  const row = await tx.paymentMethod.findFirst({ where: { id, userId }, select: { isDefault: true } });
  if (!row) throw notFound();
  await tx.paymentMethod.delete({ where: { id } });
  if (!row.isDefault) return;
  const next = await tx.paymentMethod.findFirst({
    where: { userId },
    select: { id: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  if (next) await tx.paymentMethod.update({ where: { id: next.id }, data: { isDefault: true } });
}
