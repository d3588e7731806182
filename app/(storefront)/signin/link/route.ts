import type { NextRequest } from "next/server";
import { redeemSignInLink, sendSignInLink } from "@/lib/accounts/sign-in";
import { withDb } from "@/lib/http/database";
import { seeOther } from "@/lib/http/form-answer";
import { getSessionUser } from "@/lib/http/session";
import { signedIn } from "@/lib/http/sign-in";
import { AppError } from "@/lib/errors";
import { formRoute } from "@/lib/http/form";
import { safeNextPath } from "@/lib/http/next-path";
import { pipeline } from "@/lib/http/pipeline";
import { observe } from "@/lib/http/policies/observe";
import { ipRateLimit } from "@/lib/http/policies/rate-limit";
import { signinPage } from "../../_lib/account-paths";

/**
 * POST: the "Email me a sign-in link" form. The answer is the same whether or not the address
 * has an account (opening the link makes one).
 */
export const POST = formRoute({ name: "signin.link.request", rateLimit: "sign_in" }, async ({ form }) => {
  try {
    await withDb((client) => sendSignInLink(client, form.email ?? "", safeNextPath(form.next, "") || null));
  } catch (err) {
    if (err instanceof AppError && err.param === "email") return seeOther(signinPage({ error: "email_invalid", next: form.next }));
    throw err;
  }
  return seeOther(signinPage({ notice: "link_sent", next: form.next }));
});

/**
 * GET: opening the e-mailed link signs in. It arrives from a mail client (another site), so there
 * is no same-origin check; the token itself is the proof, and it works once.
 */
export const GET = pipeline("signin.link.open", [observe, ipRateLimit("sign_in", "sign_in")], async (ctx) => {
  const request = ctx.request as NextRequest;
  const token = request.nextUrl.searchParams.get("token") ?? "";
  const next = request.nextUrl.searchParams.get("next");
  const signedInAs = (await getSessionUser())?.id ?? null;
  const result = await withDb((client) => redeemSignInLink(client, token, signedInAs));
  if (result.state !== "signed_in") return seeOther(signinPage({ error: `link_${result.state}`, next }));
  // A password removed on the way: the account page says so, and offers to set a new one.
  return signedIn(request, result.userId, result.passwordRemoved ? "/account?notice=password_removed#password" : next);
});

/** HEAD (link checkers, mail scanners) must not use up the link: it answers without opening it. */
export function HEAD(): Response {
  return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
}
