import type { DbClient } from "@/lib/db";
import type { BuyerUserData } from "@/lib/schemas/buyer";

/** The account holder a token acts for: `{ id, object: "user", email, name }`. */
export async function getProfile(client: DbClient, userId: string): Promise<BuyerUserData> {
  const user = await client.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, email: true, name: true } });
  return { id: user.id, object: "user", email: user.email, name: user.name };
}
