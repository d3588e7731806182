/**
 * The one page that ever shows a secret in full (an API key, a webhook signing secret): the page
 * the form's POST redirects to, which reveals the secret held for its one view
 * (lib/seller/dashboard/shown-once.ts) and is never cached (`no-store`); the secret is never in a
 * URL or a cookie. A reload or a second visit shows "Already shown" and makes nothing. The copy
 * button is a small script carrying this request's CSP nonce (proxy.ts); without it the secret is
 * plain selectable text.
 */
import { headers } from "next/headers";
import type { NextRequest } from "next/server";
import { getSessionUser } from "@/lib/http/session";
import { withDb } from "@/lib/http/database";
import { pipeline } from "@/lib/http/pipeline";
import { observe } from "@/lib/http/policies/observe";
import { ipRateLimit } from "@/lib/http/policies/rate-limit";
import { NONCE_HEADER } from "@/lib/http/security-headers";
import { revealSecret, type RevealKind } from "@/lib/seller/dashboard/shown-once";
import type { OwnedStore } from "@/lib/seller/dashboard/stores";
import { notFoundResponse, sellerPath, storeOfPost } from "./post";

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export interface ShownOnce {
  storeName: string;
  /** The page's title and heading ("Your new API key"). */
  title: string;
  /** `data-page` of <main>. */
  page: string;
  /** What the secret is, in a sentence's words ("key", "signing secret"). */
  noun: string;
  secret: string;
  /** The attribute (`data-<name>="true"`) that marks the secret's element. */
  marker: string;
  /** The warning's text after "Copy it now: it is shown only this once." (HTML). */
  warningHtml: string;
  /** What follows the secret (HTML, escaped by the caller). */
  detailsHtml: string;
  back: { href: string; text: string };
}

export async function shownOncePage(o: ShownOnce): Promise<Response> {
  const nonce = escapeHtml((await headers()).get(NONCE_HEADER) ?? "");
  return dashboardHtml(o.storeName, o.title, `<main id="content" data-page="${escapeHtml(o.page)}">
<h1>${escapeHtml(o.title)}</h1>
<p class="warn" role="status"><strong>Copy it now: it is shown only this once.</strong> ${o.warningHtml}</p>
<div class="key-box">
<p class="key" id="new-secret" data-${escapeHtml(o.marker)}="true">${escapeHtml(o.secret)}</p>
<button type="button" id="copy-secret" hidden>Copy</button>
</div>
<p id="copy-status" role="status" aria-live="polite"></p>
${o.detailsHtml}
<p><a class="button" href="${escapeHtml(o.back.href)}">${escapeHtml(o.back.text)}</a></p>
</main>
<script nonce="${nonce}">
(function () {
  var button = document.getElementById("copy-secret");
  var secret = document.getElementById("new-secret");
  var status = document.getElementById("copy-status");
  var noun = ${JSON.stringify(o.noun).replace(/</g, "\\u003c")};
  if (!button || !secret || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(secret.textContent.trim()).then(
      function () { button.textContent = "Copied"; status.textContent = "The " + noun + " is on your clipboard."; },
      function () { var r = document.createRange(); r.selectNodeContents(secret); var s = window.getSelection(); s.removeAllRanges(); s.addRange(r); status.textContent = "Press Ctrl+C (or Cmd+C) to copy the selected " + noun + "."; }
    );
  });
})();
</script>`);
}

/** A reload, a second visit, or one after the secret expired unseen: nothing to show, nothing made. */
export function alreadyShownPage(store: OwnedStore, o: { noun: string; page: string; again: string; back: { href: string; text: string } }): Response {
  return dashboardHtml(store.name, "Already shown", `<main id="content" data-page="${escapeHtml(o.page)}" data-already-shown="true">
<h1>Already shown</h1>
<p class="warn" role="status">This ${escapeHtml(o.noun)} was shown once, when it was made, and is not shown again (nor after ten minutes unseen). Nothing new was created. ${o.again}</p>
<p><a class="button" href="${escapeHtml(o.back.href)}">${escapeHtml(o.back.text)}</a></p>
</main>`);
}

function dashboardHtml(storeName: string, title: string, body: string): Response {
  const o = { storeName, title };
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(o.title)} · Seller dashboard · Marketplace</title>
<style>
:root{--ink:#1d2330;--muted:#5b6475;--line:#e2e5ec;--bg:#f6f7f9;--card:#fff;--brand:#1f5fbf;--focus:#f59e0b;--radius:10px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg);line-height:1.5}
*{box-sizing:border-box}body{margin:0;overflow-wrap:anywhere}a{color:var(--brand)}:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
header{background:var(--card);border-bottom:1px solid var(--line)}header div{max-width:1200px;margin:0 auto;padding:.75rem 1rem;display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
.logo{font-weight:700;font-size:1.25rem;color:var(--ink);text-decoration:none}.badge{color:var(--muted);min-width:0}
main{max-width:800px;margin:0 auto;padding:1rem}h1{font-size:1.6rem;margin:.25rem 0 1rem}
.warn{background:#fff7e6;border:1px solid #f5d48a;border-radius:var(--radius);padding:.75rem 1rem}
.key-box{display:flex;gap:.5rem;align-items:stretch;flex-wrap:wrap;margin:1rem 0}
.key{flex:1 1 16rem;min-width:0;background:var(--card);border:2px solid var(--brand);border-radius:var(--radius);padding:.75rem;font:1rem ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere;user-select:all;-webkit-user-select:all;margin:0}
[hidden]{display:none!important}
button,.button{padding:.55rem 1rem;border:0;border-radius:var(--radius);background:var(--brand);color:#fff;font:inherit;cursor:pointer;text-decoration:none;display:inline-block}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.25rem 1rem}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}ul{padding-left:1.25rem}
</style>
</head>
<body>
<header><div><a class="logo" href="/">Marketplace</a><span class="badge">Seller dashboard · ${escapeHtml(o.storeName)}</span></div></header>
${body}
</body>
</html>`;
  return new Response(html, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      Pragma: "no-cache",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/**
 * GET of a reveal page (/seller/<store>/...): the signed-in person who made the secret sees it
 * once, then "Already shown"; anyone else, signed out included, gets 404. `subject` reads the
 * secret's subject (and reveal id, when the URL has one) from the path after the store's slug.
 */
export function revealRoute(
  name: string,
  kind: RevealKind,
  subject: (path: string[]) => { subjectId: string; revealId?: string } | null,
  pages: {
    revealed: (store: OwnedStore, subjectId: string, secret: string) => Promise<Response | null>;
    alreadyShown: (store: OwnedStore, subjectId: string) => Response;
  },
) {
  return pipeline(name, [observe, ipRateLimit("form")], async (ctx) => {
    const user = await getSessionUser();
    const store = await storeOfPost(ctx.request as NextRequest, user);
    const target = subject(sellerPath(ctx.request).slice(1));
    if (!store || !user || !target) return notFoundResponse();
    const reveal = await withDb((client) => revealSecret(client, { userId: user.id, storeId: store.id }, kind, target.subjectId, target.revealId));
    if (!reveal) return notFoundResponse();
    if (reveal.state === "already_shown") return pages.alreadyShown(store, target.subjectId);
    return (await pages.revealed(store, target.subjectId, reveal.secret)) ?? notFoundResponse();
  });
}
