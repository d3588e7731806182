import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { revokeConnection } from "@/lib/oauth/connections";
import { accountPath, notFoundResponse, seeOther } from "../../../_lib/post";

/** "Revoke" on /account/agents: ends the holder's own connection and every token of it at once. */
export const POST = formRoute({ name: "account.agents.revoke", session: "required" }, async ({ request, user }) => {
  const [, grantId = ""] = accountPath(request);
  try {
    await withDb((client) => revokeConnection(client, user!.id, grantId));
    return seeOther("/account/agents?notice=agent_revoked");
  } catch (err) {
    if (err instanceof AppError && err.code === "agent_connection_not_found") return notFoundResponse(err.message);
    throw err;
  }
});
