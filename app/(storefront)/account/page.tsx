import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { listAddresses } from "@/lib/accounts/addresses";
import { listPaymentMethods } from "@/lib/accounts/payment-methods";
import { hasPassword } from "@/lib/accounts/account-password";
import { countSessions } from "@/lib/accounts/sessions";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { TEST_CARD } from "@/lib/payments";
import { decodeFlash } from "@/lib/http/flash";
import { Notice } from "@/app/_components/forms";
import { AddressesSection } from "./_components/AddressesSection";
import { PasswordSection } from "./_components/PasswordSection";
import { PaymentMethodsSection } from "./_components/PaymentMethodsSection";
import { ACCOUNT_NOTICES } from "./_lib/notices";
import { one, type SearchParams } from "./_lib/post";

export const metadata: Metadata = { title: "Your account", robots: { index: false } };

const ROLE_LABELS = { shopper: "Shopper", store_owner: "Store owner", admin: "Marketplace admin" } as const;

/**
 * The signed-in person's profile, saved shipping addresses and payment method, where they can go
 * from here, and signing out (here, or on every browser and device at once).
 */
export default async function AccountPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await getSessionUser();
  if (!user) redirect("/signin?next=%2Faccount");
  const params = await searchParams;
  const flash = decodeFlash(one(params.flash));
  const [addresses, methods, sessions, withPassword] = await withDb((client) =>
    Promise.all([listAddresses(client, user.id), listPaymentMethods(client, user.id), countSessions(client, user.id), hasPassword(client, user.id)]),
  );
  const testCardSaved = methods.some((m) => m.provider === TEST_CARD.provider && m.provider_ref === TEST_CARD.providerRef);
  return (
    <main className="page" data-page="account">
      <h1>Your account</h1>
      <Notice notices={ACCOUNT_NOTICES} notice={one(params.notice)} />
      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <dl className="profile">
          <dt>Name</dt>
          <dd data-field="name">{user.name ?? "—"}</dd>
          <dt>E-mail</dt>
          <dd data-field="email">{user.email}</dd>
          <dt>Role</dt>
          <dd data-field="role" data-role={user.role}>
            {ROLE_LABELS[user.role]}
          </dd>
        </dl>
      </section>
      <AddressesSection addresses={addresses} flash={flash} defaultName={user.name ?? ""} />
      <PaymentMethodsSection methods={methods} flash={flash} testCardSaved={testCardSaved} />
      <PasswordSection hasPassword={withPassword} flash={flash} />
      <nav aria-label="Account">
        <ul>
          <li>
            <Link href="/cart" prefetch={false}>
              Your cart
            </Link>
          </li>
          <li>
            <Link href="/account/orders" prefetch={false}>
              Your orders
            </Link>
          </li>
          <li>
            <Link href="/account/agents" prefetch={false}>
              Agents
            </Link>
          </li>
          {user.role === "store_owner" ? (
            <li>
              <Link href="/seller" prefetch={false}>
                Seller dashboard
              </Link>
            </li>
          ) : null}
          {user.role === "admin" ? (
            <li>
              <Link href="/admin" prefetch={false}>
                Marketplace settings
              </Link>
            </li>
          ) : null}
        </ul>
      </nav>
      <form method="post" action="/signout">
        <button type="submit">Sign out</button>
      </form>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <p data-field="sessions" data-sessions={sessions}>
          {sessions === 1 ? "You are signed in on this browser only." : `You are signed in on ${sessions} browsers or devices, this one included.`} Ending
          all sessions signs you out on every one of them at once, this one too.
        </p>
        <form method="post" action="/signout">
          <input type="hidden" name="scope" value="everywhere" />
          <button type="submit">End all sessions</button>
        </form>
      </section>
    </main>
  );
}
