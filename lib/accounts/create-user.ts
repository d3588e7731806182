import type { DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { findStoreBySlug } from "@/lib/stores/status";
import { endAllSessions } from "./sessions";
import { addStoreOwner, type Role, upsertUserWithPassword } from "./users";

export interface CreateUserInput {
  email: string;
  password: string;
  name?: string;
  role?: Role;
  /** Slug of a store the user becomes an owner of. */
  store?: string;
}

/**
 * `admin -- user create`: creates the account, or resets the password (and name and role, when
 * given) of an existing one, ending every session it has (whoever signed in with the old password
 * is signed out), and makes it an owner of `store`. Run it in a transaction: an unknown store
 * throws before anything is written.
 */
export async function createOrResetUser(client: DbClient, input: CreateUserInput): Promise<{ id: string; created: boolean }> {
  if (input.store !== undefined && input.role === "shopper") {
    throw new AppError("parameter_invalid", "An owner of a store cannot have the role shopper.", "role");
  }
  const store = input.store === undefined ? null : await findStoreBySlug(client, input.store);
  if (input.store !== undefined && !store) {
    throw new AppError("parameter_invalid", `No store has the slug '${input.store}'.`, "store");
  }
  const user = await upsertUserWithPassword(client, input);
  if (!user.created) await endAllSessions(client, user.id);
  if (store) await addStoreOwner(client, user.id, store.id);
  return user;
}
