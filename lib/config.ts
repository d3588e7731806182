import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "zod";

/** An ACP platform's order-webhook receiver (ACP_WEBHOOKS). */
const AcpWebhook = z.strictObject({
  platform_key_sha256: z.string().regex(/^[0-9a-f]{64}$/, "platform_key_sha256 is the SHA-256 of the platform's bearer key, 64 lowercase hex digits"),
  url: z.url({ protocol: /^https$/, error: "url must be an https URL" }),
  secret: z.string().min(16, "secret must be at least 16 characters"),
});
const AcpWebhooks = z.array(AcpWebhook).max(100);
export type AcpWebhookConfig = z.output<typeof AcpWebhook>;

function isPostgresUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "postgresql:" || url.protocol === "postgres:";
  } catch {
    return false;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The app's configuration: one zod-checked object read from the environment. `checkConfig()`
 * runs when a server starts (instrumentation.ts), so a missing or malformed setting stops the app
 * at boot with a message naming it, not at the first request that needs it.
 */
const Env = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PUBLIC_BASE_URL: z
      .string()
      .trim()
      .url()
      .transform((v) => v.replace(/\/+$/, ""))
      .optional(),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    DATABASE_URL: z.string().trim().min(1).optional(),
    /**
     * Streaming replicas of DATABASE_URL's database, comma-separated `postgresql://` URLs: public
     * catalog reads go to them (lib/db/replicas.ts). Ignored without DATABASE_URL.
     */
    DATABASE_REPLICA_URLS: z.string().optional(),
    /** How far behind the primary (ms) a replica may be and still serve reads. */
    DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).max(3_600_000).default(1_000),
    REDIS_URL: z.string().trim().min(1).optional(),
    /** Signs session cookies. Required in production; development uses a fixed, logged value. */
    AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)").optional(),
    /**
     * Where outgoing e-mail goes: `outbox` (the default) keeps it in the database for /dev/outbox
     * and the log; `smtp` also sends it to SMTP_URL.
     */
    EMAIL_DELIVERY: z.enum(["outbox", "smtp"]).default("outbox"),
    /** The SMTP server of EMAIL_DELIVERY=smtp: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. */
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: "SMTP_URL must be an smtp:// or smtps:// URL" }).optional(),
    /** The From of sent mail; default `Marketplace <no-reply@host of PUBLIC_BASE_URL>`. */
    SMTP_FROM: z.string().trim().min(1).optional(),
    /**
     * `on` serves /dev/outbox outside development too, to signed-in marketplace admins only, and
     * never when PUBLIC_BASE_URL is https (tests and demos).
     */
    DEV_OUTBOX: z.enum(["on", "off"]).optional(),
    /**
     * Tests and demos only: `on` keeps e-mailed links (sign-in and confirmation links, a guest's
     * order page) in clear in production too, in `outbox_emails` and in outbox mode's log line.
     * Without it, production stores a placeholder in the body, the link encrypted until sent, and
     * logs no link. Outside production links are always kept (how a developer signs in).
     */
    OUTBOX_KEEPS_LINKS: z.enum(["on", "off"]).default("off"),
    /**
     * Tests only: `on` lets the OAuth server fetch client ID metadata documents from loopback
     * addresses (127.0.0.0/8, ::1, localhost), where a test serves them. Private, link-local and
     * other special-use addresses stay refused; never set it in production.
     */
    OAUTH_CIMD_ALLOW_LOOPBACK: z.enum(["on", "off"]).default("off"),
    /**
     * Tests only: `on` lets order webhooks and the platform-profile fetch reach loopback
     * addresses, where a test serves receivers and profiles (never the OAuth client-metadata
     * fetch, which has its own setting). Never set it in production.
     */
    WEBHOOKS_ALLOW_LOOPBACK: z.enum(["on", "off"]).default("off"),
    /**
     * Where background jobs (webhook deliveries) run: `in-app` in every app process (the
     * default), `off` to leave them to `npm run worker` processes.
     */
    JOBS_WORKER: z.enum(["in-app", "off"]).default("in-app"),
    /**
     * ACP platforms that receive order webhooks, as JSON: `[{ "platform_key_sha256": "<hex>",
     * "url": "https://…", "secret": "…" }]`. A platform is known by the SHA-256 of the bearer
     * key it calls with; `secret` is the HMAC key it gave for `Merchant-Signature`.
     */
    ACP_WEBHOOKS: z.string().optional(),
    /**
     * Exact stock comparisons each listing answers on cart links, whoever asks: this many at once,
     * refilled at this many a day (lib/cart/links.ts). Past it, a line asking for more than one
     * unit is accepted unchecked (the link is checked again when opened).
     */
    STOCK_PROBE_BUDGET: z.coerce.number().int().min(1).max(1_000_000).default(3),
    /**
     * Failed password sign-ins per account (lib/accounts/sign-in.ts): SIGN_IN_ACCOUNT_FAILURES at
     * once, then one more every SIGN_IN_BACKOFF_SECONDS, whichever addresses they come from.
     */
    SIGN_IN_ACCOUNT_FAILURES: z.coerce.number().int().min(1).max(1_000).default(5),
    SIGN_IN_BACKOFF_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  })
  .superRefine((env, ctx) => {
    for (const url of (env.DATABASE_REPLICA_URLS ?? "").split(",").map((u) => u.trim()).filter(Boolean)) {
      if (!isPostgresUrl(url)) {
        ctx.addIssue({
          code: "custom",
          path: ["DATABASE_REPLICA_URLS"],
          // Never the entry itself: it may hold a password.
          message: "DATABASE_REPLICA_URLS must be comma-separated postgresql:// URLs (one entry is not)",
        });
        break;
      }
    }
    if (env.ACP_WEBHOOKS !== undefined) {
      const parsed = AcpWebhooks.safeParse(parseJson(env.ACP_WEBHOOKS));
      if (!parsed.success) {
        ctx.addIssue({
          code: "custom",
          path: ["ACP_WEBHOOKS"],
          message: `ACP_WEBHOOKS must be a JSON array of { platform_key_sha256 (64 hex), url (https), secret (16+ characters) }: ${parsed.error.issues[0]!.message}`,
        });
      }
    }
    if (env.EMAIL_DELIVERY === "smtp" && !env.SMTP_URL) {
      ctx.addIssue({ code: "custom", path: ["SMTP_URL"], message: "SMTP_URL is required with EMAIL_DELIVERY=smtp: the SMTP server to send through, e.g. smtp://user:pass@host:587" });
    }
    if (env.NODE_ENV === "production" && !env.AUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "AUTH_SECRET is required in production: set it to a random string of 32+ characters (e.g. `openssl rand -base64 32`)",
      });
    }
  });

// A fixed development secret: sessions made by `npm run dev` are only as private as this file.
const DEVELOPMENT_AUTH_SECRET = "development-only-secret-do-not-use-in-production-0000";

export interface AppConfig {
  production: boolean;
  publicBaseUrl: string;
  /** False when PUBLIC_BASE_URL is unset: shown links then follow the request's origin. */
  publicBaseUrlSet: boolean;
  databaseUrl?: string;
  redisUrl?: string;
  authSecret: string;
  emailDelivery: "outbox" | "smtp";
  /** With EMAIL_DELIVERY=smtp: the server and the From address. */
  smtp?: { url: string; from: string };
  /**
   * Who /dev/outbox is served to: everyone in development (unless DEV_OUTBOX=off); outside
   * development only signed-in admins, only with DEV_OUTBOX=on, and never on https; else nobody.
   */
  devOutbox: "everyone" | "admins" | "nobody";
  /** Whether e-mailed links are stored and logged in clear (outside production, or OUTBOX_KEEPS_LINKS=on). */
  emailLinksInClear: boolean;
  /** Tests only: client ID metadata documents may be fetched from loopback addresses. */
  oauthCimdAllowLoopback: boolean;
  /** Exact stock comparisons per listing on cart links: at once, and refilled per day. */
  stockProbeBudget: number;
  /** Failed password sign-ins per account at once, and the wait for each one more. */
  signInAccountFailures: number;
  signInBackoffSeconds: number;
  /** Tests only: webhooks and platform profiles may be fetched from loopback addresses. */
  webhooksAllowLoopback: boolean;
  /** Whether this app process runs the background jobs' workers. */
  jobsInApp: boolean;
  /** ACP platforms' order-webhook receivers, by the SHA-256 of their bearer key. */
  acpWebhooks: AcpWebhookConfig[];
}

let cached: AppConfig | undefined;

/** Reads and checks the environment once; throws a message naming every bad setting. */
export function config(): AppConfig {
  if (cached) return cached;
  const parsed = Env.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(environment)"}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const publicBase = env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`;
  cached = {
    production: env.NODE_ENV === "production",
    publicBaseUrl: publicBase,
    publicBaseUrlSet: env.PUBLIC_BASE_URL !== undefined,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    authSecret: env.AUTH_SECRET ?? DEVELOPMENT_AUTH_SECRET,
    emailDelivery: env.EMAIL_DELIVERY,
    smtp:
      env.EMAIL_DELIVERY === "smtp"
        ? { url: env.SMTP_URL!, from: env.SMTP_FROM ?? `Marketplace <no-reply@${new URL(publicBase).hostname}>` }
        : undefined,
    devOutbox:
      env.NODE_ENV === "development"
        ? env.DEV_OUTBOX !== "off"
          ? "everyone"
          : "nobody"
        : env.DEV_OUTBOX === "on" && !publicBase.startsWith("https:")
          ? "admins"
          : "nobody",
    emailLinksInClear: env.NODE_ENV !== "production" || env.OUTBOX_KEEPS_LINKS === "on",
    oauthCimdAllowLoopback: env.OAUTH_CIMD_ALLOW_LOOPBACK === "on",
    stockProbeBudget: env.STOCK_PROBE_BUDGET,
    signInAccountFailures: env.SIGN_IN_ACCOUNT_FAILURES,
    signInBackoffSeconds: env.SIGN_IN_BACKOFF_SECONDS,
    webhooksAllowLoopback: env.WEBHOOKS_ALLOW_LOOPBACK === "on",
    jobsInApp: env.JOBS_WORKER === "in-app",
    acpWebhooks: env.ACP_WEBHOOKS === undefined ? [] : AcpWebhooks.parse(JSON.parse(env.ACP_WEBHOOKS)),
  };
  return cached;
}

/** Called at server start: a bad configuration stops the process with a clear message. */
export function checkConfig(): void {
  try {
    config();
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\nThe app cannot start; see .env.example.\n`);
    process.exit(1);
  }
}

/** Absolute origin for every `url` the API returns, from PUBLIC_BASE_URL (no trailing slash). */
export function publicBaseUrl(): string {
  return config().publicBaseUrl;
}

/** A path made absolute to PUBLIC_BASE_URL: for what leaves the request (e-mail, OAuth, discovery documents). */
export function absoluteUrl(pathOrUrl: string): string {
  return pathOrUrl.startsWith("/") ? `${publicBaseUrl()}${pathOrUrl}` : pathOrUrl;
}

const requestOrigins = new AsyncLocalStorage<string>();

/**
 * Runs `fn` as the answer to a request that came in on `origin` (its scheme, host and port, from
 * lib/http/request-origin.ts): within it, `shownUrl` links to that origin while PUBLIC_BASE_URL is
 * unset, so a storefront opened at another address than localhost shows pictures that load.
 */
export function withRequestOrigin<T>(origin: string | null, fn: () => T): T {
  return origin === null ? fn() : requestOrigins.run(origin, fn);
}

/**
 * A path made absolute for the caller to follow: product and picture links in catalog and cart
 * answers and canonical links of pages. PUBLIC_BASE_URL when set (always in production behind a
 * proxy); otherwise the origin the request came in on. Never for e-mail, OAuth or discovery
 * documents: a Host header must not choose where a sign-in link points (`absoluteUrl`).
 */
export function shownUrl(pathOrUrl: string): string {
  if (!pathOrUrl.startsWith("/")) return pathOrUrl;
  const base = config().publicBaseUrlSet ? publicBaseUrl() : (requestOrigins.getStore() ?? publicBaseUrl());
  return `${base}${pathOrUrl}`;
}
