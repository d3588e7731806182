import { AppError } from "@/lib/errors";
import { clientIp } from "@/lib/http/client-ip";
import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { seeOther } from "@/lib/http/form-answer";
import { answerConsent } from "@/lib/oauth/consent";

/**
 * The consent form's answer (same-origin posts only, signed-in holder only): Allow with the ticked
 * scopes, or Deny; 303 to oidc-provider, which sends the browser back to the client with a code
 * or `access_denied`. A second answer, or one for a request that is over, gets a page saying so.
 */
export const POST = formRoute({ name: "oauth.consent", session: "required" }, async ({ request, form, all, user }) => {
  const uid = decodeURIComponent(new URL(request.url).pathname.split("/")[3] ?? "");
  try {
    if (form.account !== user!.id) throw new AppError("consent_wrong_account", "This consent form was shown to another account than the one signed in now. Go back to the app and connect again.");
    const next = await withDb((client) =>
      answerConsent(client, { headers: request.headers, clientIp: clientIp(request.headers) }, uid, user!.id, {
        allow: form.decision === "allow",
        scopes: all("scope"),
      }),
    );
    return seeOther(next);
  } catch (err) {
    if (err instanceof AppError && err.code.startsWith("consent_")) return refusal(err);
    throw err;
  }
});

function refusal(err: AppError): Response {
  const text = err.message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>This request is over</title></head><body><main style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem"><h1>This request is over</h1><p role="alert" data-error="${err.code}">${text}</p><p><a href="/account/agents">Your connected agents</a></p></main></body></html>`;
  return new Response(html, { status: err.status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
