import { safeNextPath } from "@/lib/http/next-path";

/** /signin or /register with a message code and the `next` path to keep (only a safe one). */
function pageWith(path: string, params: { error?: string; notice?: string; next?: unknown }): string {
  const query = new URLSearchParams();
  if (params.error) query.set("error", params.error);
  if (params.notice) query.set("notice", params.notice);
  const next = safeNextPath(params.next, "");
  if (next) query.set("next", next);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

export const signinPage = (params: { error?: string; notice?: string; next?: unknown }) => pageWith("/signin", params);
export const registerPage = (params: { error?: string; next?: unknown }) => pageWith("/register", params);
