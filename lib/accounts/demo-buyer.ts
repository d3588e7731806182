import type { ShippingAddressData } from "@/lib/schemas/orders";
import { addAddress, setDefaultAddress } from "./addresses";
import { saveTestCard, setDefaultPaymentMethod } from "./payment-methods";
import type { Prisma } from "@/lib/db";

/** The US address a demo buyer ships to, in the account's name (else "Demo Buyer"). */
export const DEMO_ADDRESS: Omit<ShippingAddressData, "full_name"> = {
  line1: "100 Market Street",
  line2: "Apt 4",
  city: "San Francisco",
  state: "CA",
  postal_code: "94105",
  country: "US",
};

/**
 * Makes an account ready to check out at once (`admin -- user create --demo-buyer` and the
 * development seed's shopper): a default US shipping address and the saved test card as the
 * default payment method. Running it again adds nothing: an account that already has a default
 * address keeps it, the demo address is saved once, the test card is saved once. Run it in a
 * transaction (`tx`).
 */
export async function makeDemoBuyer(tx: Prisma.TransactionClient, userId: string): Promise<{ addressAdded: boolean; cardAdded: boolean }> {
  let addressAdded = false;
  const current = await tx.address.findFirst({ where: { userId, isDefault: true }, select: { id: true } });
  if (!current) {
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { name: true } });
    const address: ShippingAddressData = { full_name: user.name ?? "Demo Buyer", ...DEMO_ADDRESS };
    const same = await tx.address.findFirst({
      where: {
        userId,
        fullName: address.full_name,
        line1: address.line1,
        line2: address.line2,
        city: address.city,
        state: address.state,
        postalCode: address.postal_code,
        country: address.country,
      },
      select: { id: true },
    });
    if (same) await setDefaultAddress(tx, userId, same.id);
    else {
      await addAddress(tx, userId, address, { makeDefault: true });
      addressAdded = true;
    }
  }
  const card = await saveTestCard(tx, userId);
  if (!card.method.is_default) await setDefaultPaymentMethod(tx, userId, card.method.id);
  return { addressAdded, cardAdded: card.created };
}
