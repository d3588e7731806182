import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Your account", robots: { index: false } };

const ROLE_LABELS = { shopper: "Shopper", store_owner: "Store owner", admin: "Marketplace admin" } as const;

/** The signed-in person's profile, where they can go from here, and signing out. */
export default async function AccountPage() {
  const user = await getSessionUser();
  if (!user) redirect("/signin?next=%2Faccount");
  return (
    <main className="page" data-page="account">
      <h1>Your account</h1>
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
    </main>
  );
}
