import { z } from "zod";

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
    REDIS_URL: z.string().trim().min(1).optional(),
    /** Signs session cookies. Required in production; development uses a fixed, logged value. */
    AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)").optional(),
    /** Where outgoing e-mail goes: `outbox` keeps it in the database for /dev/outbox and the log. */
    EMAIL_DELIVERY: z.enum(["outbox"]).default("outbox"),
    /** `on` serves /dev/outbox in production too (it shows sign-in links: tests and demos only). */
    DEV_OUTBOX: z.enum(["on", "off"]).optional(),
    /**
     * Tests only: `on` lets the OAuth server fetch client ID metadata documents from loopback
     * addresses (127.0.0.0/8, ::1, localhost), where a test serves them. Private, link-local and
     * other special-use addresses stay refused; never set it in production.
     */
    OAUTH_CIMD_ALLOW_LOOPBACK: z.enum(["on", "off"]).default("off"),
    /**
     * Exact stock comparisons each listing answers on cart links, whoever asks: this many at once,
     * refilled at this many a day (lib/cart/links.ts). Past it, a line asking for more than one
     * unit is accepted unchecked (the link is checked again when opened).
     */
    STOCK_PROBE_BUDGET: z.coerce.number().int().min(1).max(1_000_000).default(3),
  })
  .superRefine((env, ctx) => {
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
  databaseUrl?: string;
  redisUrl?: string;
  authSecret: string;
  emailDelivery: "outbox";
  /** Whether /dev/outbox is served: always outside production, in production only with DEV_OUTBOX=on. */
  devOutbox: boolean;
  /** Tests only: client ID metadata documents may be fetched from loopback addresses. */
  oauthCimdAllowLoopback: boolean;
  /** Exact stock comparisons per listing on cart links: at once, and refilled per day. */
  stockProbeBudget: number;
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
  cached = {
    production: env.NODE_ENV === "production",
    publicBaseUrl: env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    authSecret: env.AUTH_SECRET ?? DEVELOPMENT_AUTH_SECRET,
    emailDelivery: env.EMAIL_DELIVERY,
    devOutbox: env.NODE_ENV !== "production" ? env.DEV_OUTBOX !== "off" : env.DEV_OUTBOX === "on",
    oauthCimdAllowLoopback: env.OAUTH_CIMD_ALLOW_LOOPBACK === "on",
    stockProbeBudget: env.STOCK_PROBE_BUDGET,
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

export function absoluteUrl(pathOrUrl: string): string {
  return pathOrUrl.startsWith("/") ? `${publicBaseUrl()}${pathOrUrl}` : pathOrUrl;
}
