import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { getSetting } from "@/lib/settings";
import { Message } from "../_components/Messages";

export const metadata: Metadata = { title: "Marketplace settings", robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Marketplace settings, for admins: signed out -> /signin; signed in without the role -> 404. */
export default async function AdminPage({ searchParams }: Props) {
  const user = await getSessionUser();
  if (!user) redirect("/signin?next=%2Fadmin");
  if (user.role !== "admin") notFound();
  const [agentic, params] = await Promise.all([withDb((client) => getSetting(client, "agentic_checkout")), searchParams]);
  return (
    <main className="page" data-page="admin">
      <h1>Marketplace settings</h1>
      <Message kind="notice" code={params.notice} texts={{ saved: "Settings saved." }} />
      <form method="post" action="/admin/settings" className="account-form" aria-label="Marketplace settings">
        <label className="check">
          <input type="checkbox" name="agentic_checkout" defaultChecked={agentic} data-setting="agentic_checkout" />
          Agentic checkout
        </label>
        <p className="muted">When on, agents may place orders for account holders who allow it.</p>
        <p>
          <button type="submit">Save</button>
        </p>
      </form>
    </main>
  );
}
