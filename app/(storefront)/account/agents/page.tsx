import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/session";
import { listConnections } from "@/lib/oauth/connections";
import { Notice } from "@/app/seller/_components/forms";
import { ACCOUNT_NOTICES } from "../_lib/notices";
import { one, type SearchParams } from "../_lib/post";
import { ConnectedAgents } from "./_components/ConnectedAgents";

export const metadata: Metadata = { title: "Agents", robots: { index: false } };
export const dynamic = "force-dynamic";

/**
 * The holder's connected agents. NOTE (to reconcile): branch agent-checkout also creates this page
 * with the agent settings form and `agentSpendByGrant`; there, render <ConnectedAgents> in its
 * "Connected agents" spot with that map. Here, without it, nothing was spent.
 */
export default async function AgentsPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await getSessionUser();
  if (!user) redirect("/signin?next=%2Faccount%2Fagents");
  const params = await searchParams;
  const connections = await listConnections(user.id);
  return (
    <main className="page" data-page="account-agents">
      <p className="back">
        <Link href="/account">Your account</Link>
      </p>
      <h1>Agents</h1>
      <Notice notices={ACCOUNT_NOTICES} notice={one(params.notice)} />
      <ConnectedAgents connections={connections} spentByGrant={new Map()} />
    </main>
  );
}
