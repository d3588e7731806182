import type { NextRequest } from "next/server";
import type { SessionUser } from "@/lib/http/session";
import type { RateLimitPolicy } from "@/lib/ratelimit";
import { pipeline, type Policy } from "./pipeline";
import { observe } from "./policies/observe";
import { parseFormWith } from "./policies/parse-form";
import { readYourWrites } from "./policies/read-your-writes";
import { ipRateLimit } from "./policies/rate-limit";
import { sameOrigin } from "./policies/same-origin";
import { sessionCaller, type SessionRule } from "./policies/session-caller";

export type { SessionRule } from "./policies/session-caller";

export interface FormRouteOptions {
  /** The log line's `route` and the rate-limit bucket's name. */
  name: string;
  /** Per client IP; `form` by default. Every `sign_in` route shares one bucket per IP. */
  rateLimit?: RateLimitPolicy;
  /** Who may post; without it the session is not read and `user` is null. */
  session?: SessionRule;
  /** A form posting files (multipart): the body may be this large; the files are in `files`. */
  files?: { maxBytes: number };
}

export interface FormContext {
  request: NextRequest;
  /** The posted fields (strings only; files are dropped); a repeated field keeps its last value. */
  form: Record<string, string>;
  /** Every value posted under `name`, in order (a group of checkboxes sharing one name). */
  all: (name: string) => string[];
  /** Each non-empty posted file by field name, for a route declaring `files`. */
  files: Record<string, File>;
  /** The signed-in person, when the route reads the session. */
  user: SessionUser | null;
  requestId: string;
}

/**
 * An HTML form post (pages that work without JavaScript): request id and log line, a rate limit
 * per client IP, cross-site posts refused (403), the form read (at most 1 MiB), the session
 * checked; the handler answers, usually 303 to a page with a notice, once the catalog changes it
 * committed are heard here (readYourWrites: the page it leads to shows them).
 */
export function formRoute(options: FormRouteOptions, handler: (ctx: FormContext) => Promise<Response>) {
  const policy = options.rateLimit ?? "form";
  const policies: Policy[] = [
    observe,
    ipRateLimit(policy, policy === "sign_in" ? "sign_in" : undefined),
    sameOrigin,
    parseFormWith(options.files),
    ...(options.session ? [sessionCaller(options.session)] : []),
    readYourWrites,
  ];
  return pipeline(options.name, policies, (ctx) =>
    handler({
      request: ctx.request,
      form: ctx.body as Record<string, string>,
      all: (name) => ctx.formLists?.[name] ?? [],
      files: ctx.formFiles ?? {},
      user: ctx.sessionUser ?? null,
      requestId: ctx.requestId,
    }),
  );
}
