/**
 * A buyer's saved shipping addresses (decisions.md "Accounts and operator commands": `/account`
 * holds the addresses; checkout ships to the default one). Plain values in, plain objects out;
 * nothing here knows of HTTP. Every change runs in one transaction that first locks the holder's
 * `users` row, so two changes of one account at once take turns: the limit of 10 holds, and the
 * "one default per account" rule (a partial unique index) never trips.
 */
import type { Prisma, DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { ADDRESS_LIMITS, parseShippingAddress, type AddressInput } from "@/lib/orders/address";
import type { ShippingAddressData } from "@/lib/schemas/orders";
import { isUuid } from "@/lib/ids";
import { lockUser } from "./tx";

/** Saved addresses one account may hold. */
export const ADDRESS_LIMIT = 10;

export type { AddressInput };

export type AddressField = keyof Required<AddressInput>;

/** A saved address as pages show it. */
export interface SavedAddress extends ShippingAddressData {
  id: string;
  is_default: boolean;
}

/** Labels of the fields, as the pages (and checkout's) show them. */
export const ADDRESS_LABELS: Record<AddressField, string> = {
  full_name: "Full name",
  line1: "Address line 1",
  line2: "Address line 2",
  city: "City",
  state: "State",
  postal_code: "ZIP code",
  country: "Country",
};

/** Longest value of each field, in characters. */
export const ADDRESS_MAX: Record<AddressField, number> = { ...ADDRESS_LIMITS, country: 2 };

/**
 * Checks and tidies an address to save: the rules of a shipping address at checkout
 * (`parseShippingAddress`: every field trimmed, NFC, bounded, free of control characters; the
 * country a 2-letter code; a US ZIP code 5 or 9 digits, kept as `12345` or `12345-6789`; a
 * state needed in the US), and, as a saved address is used again and again, a US state as its
 * 2-letter code. Throws `parameter_missing` or `parameter_invalid` naming the field.
 */
export function normaliseAddress(input: AddressInput): ShippingAddressData {
  const address = parseShippingAddress(input, "");
  if (address.country === "US") {
    address.state = address.state.toUpperCase();
    if (!/^[A-Z]{2}$/.test(address.state)) {
      throw new AppError("parameter_invalid", "Enter the 2-letter code of the US state, such as CA.", "state");
    }
  }
  return address;
}

const SELECT = {
  id: true,
  fullName: true,
  line1: true,
  line2: true,
  city: true,
  state: true,
  postalCode: true,
  country: true,
  isDefault: true,
} as const;

type Row = { id: string; fullName: string; line1: string; line2: string | null; city: string; state: string; postalCode: string; country: string; isDefault: boolean };

function shippingAddressOf(row: Row): ShippingAddressData {
  return {
    full_name: row.fullName,
    line1: row.line1,
    line2: row.line2,
    city: row.city,
    state: row.state,
    postal_code: row.postalCode,
    country: row.country,
  };
}

function toSaved(row: Row): SavedAddress {
  return { id: row.id, ...shippingAddressOf(row), is_default: row.isDefault };
}

function columnsOf(address: ShippingAddressData) {
  return {
    fullName: address.full_name,
    line1: address.line1,
    line2: address.line2,
    city: address.city,
    state: address.state,
    postalCode: address.postal_code,
    country: address.country,
  };
}

function notFound(): AppError {
  return new AppError("address_not_found", "That address is not one of your saved addresses.");
}

/** The account's addresses: the default first, then the oldest first. */
export async function listAddresses(client: DbClient, userId: string): Promise<SavedAddress[]> {
  const rows = await client.address.findMany({
    where: { userId },
    select: SELECT,
    orderBy: [{ isDefault: "desc" }, { createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toSaved);
}

/** One of the account's addresses; `address_not_found` for any other id (another account's too). */
export async function getAddress(client: DbClient, userId: string, id: string): Promise<SavedAddress> {
  const row = isUuid(id) ? await client.address.findFirst({ where: { id, userId }, select: SELECT }) : null;
  if (!row) throw notFound();
  return toSaved(row);
}

/**
 * The account's default shipping address in the shape of an order's `shipping_address`, or null
 * when it has none: what checkout ships to.
 */
export async function defaultAddress(client: DbClient, userId: string): Promise<ShippingAddressData | null> {
  if (!isUuid(userId)) return null;
  const row = await client.address.findFirst({ where: { userId, isDefault: true }, select: SELECT });
  return row ? shippingAddressOf(row) : null;
}

/**
 * Saves a new address (at most ADDRESS_LIMIT per account). The account's first address becomes
 * its default; `makeDefault` makes this one the default in any case.
 */
export async function addAddress(
  tx: Prisma.TransactionClient,
  userId: string,
  input: AddressInput,
  { makeDefault = false }: { makeDefault?: boolean } = {},
): Promise<SavedAddress> {
  const address = normaliseAddress(input);
  await lockUser(tx, userId);
  const held = await tx.address.count({ where: { userId } });
  if (held >= ADDRESS_LIMIT) {
    throw new AppError("address_limit_reached", `You can save up to ${ADDRESS_LIMIT} addresses. Delete one to add another.`);
  }
  const hasDefault = (await tx.address.count({ where: { userId, isDefault: true } })) > 0;
  const isDefault = makeDefault || !hasDefault;
  if (isDefault && hasDefault) await tx.address.updateMany({ where: { userId, isDefault: true }, data: { isDefault: false } });
  const row = await tx.address.create({ data: { userId, ...columnsOf(address), isDefault }, select: SELECT });
  return toSaved(row);
}

/** Changes one of the account's addresses (its default flag stays as it is). */
export async function updateAddress(tx: Prisma.TransactionClient, userId: string, id: string, input: AddressInput): Promise<SavedAddress> {
  const address = normaliseAddress(input);
  if (!isUuid(id)) throw notFound();
  const { count } = await tx.address.updateMany({ where: { id, userId }, data: columnsOf(address) });
  if (count === 0) throw notFound();
  return toSaved(await tx.address.findUniqueOrThrow({ where: { id }, select: SELECT }));
}

/** Makes one of the account's addresses its default (the one before stops being it). */
export async function setDefaultAddress(tx: Prisma.TransactionClient, userId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound();
  await lockUser(tx, userId);
  if ((await tx.address.count({ where: { id, userId } })) === 0) throw notFound();
  await tx.address.updateMany({ where: { userId, isDefault: true, NOT: { id } }, data: { isDefault: false } });
  await tx.address.updateMany({ where: { id, userId }, data: { isDefault: true } });
}

/**
 * Deletes one of the account's addresses. When it was the default, the most recently saved of the
 * others becomes the default (none when it was the last). Orders keep their own copy of the
 * address they shipped to, so past orders are unchanged.
 */
export async function deleteAddress(tx: Prisma.TransactionClient, userId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound();
  await lockUser(tx, userId);
  const row = await tx.address.findFirst({ where: { id, userId }, select: { isDefault: true } });
  if (!row) throw notFound();
  await tx.address.delete({ where: { id } });
  if (!row.isDefault) return;
  const next = await tx.address.findFirst({
    where: { userId },
    select: { id: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  if (next) await tx.address.update({ where: { id: next.id }, data: { isDefault: true } });
}
