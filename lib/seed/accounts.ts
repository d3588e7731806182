/**
 * Demo accounts of the development seed (docs/fixtures.md "Accounts"). Only `npm run db:seed`
 * and the embedded database's first start create them; `npm run db:migrate` never does.
 */

/** The one password of every account the seed creates (demo accounts and store owners alike). */
export const DEMO_PASSWORD = "demo-password";

export interface DemoAccount {
  email: string;
  name: string;
  role: "shopper" | "store_owner" | "admin";
  /** Slugs of the stores the account owns. */
  stores: string[];
  /**
   * Ready to check out: a default US shipping address and the saved test card as the default
   * payment method (what `admin -- user create --demo-buyer` gives an account).
   */
  demoBuyer?: boolean;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { email: "demo-shopper@example.com", name: "Dana Shopper", role: "shopper", stores: [], demoBuyer: true },
  { email: "demo-owner@example.com", name: "Olu Owner", role: "store_owner", stores: ["fixture-store-a", "fixture-store-b"] },
  { email: "demo-admin@example.com", name: "Avery Admin", role: "admin", stores: [] },
];
