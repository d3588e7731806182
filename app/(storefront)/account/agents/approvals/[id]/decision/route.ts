import { decideApproval } from "@/lib/agents/approvals";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { accountPath, notFoundResponse, refused, seeOther } from "../../../../_lib/post";

/**
 * "Approve order" and "Decline" on /account/agents/approvals/<id>: the signed-in holder's answer
 * to their agent's request (same-origin posts only). Back to the page, which shows the answer;
 * another account's request is a 404 and changes nothing.
 */
export const POST = formRoute({ name: "account.agents.approval", session: "required" }, async ({ request, form, user }) => {
  const [, , id = ""] = accountPath(request);
  const page = `/account/agents/approvals/${encodeURIComponent(id)}`;
  const decision = form.decision;
  try {
    if (decision !== "approve" && decision !== "decline") throw new AppError("parameter_invalid", "Choose Approve order or Decline.", "decision");
    await withDb((client) => decideApproval(client, user!.id, id, decision));
    return seeOther(page);
  } catch (err) {
    if (err instanceof AppError && err.code === "agent_approval_not_found") return notFoundResponse(err.message);
    return refused(page, "approval", err, form);
  }
});
