/**
 * Operator commands (decisions.md "Accounts and operator commands"):
 *
 *   npm run --silent admin -- user create --email E --password P [--name N] [--role shopper|store_owner|admin] [--store SLUG] [--demo-buyer]
 *   npm run --silent admin -- key create --store SLUG --scopes listings:read,listings:write,shipping:write,orders:read,orders:write [--name N] [--expires-in DAYS]
 *   npm run --silent admin -- key revoke KEY_ID
 *   npm run --silent admin -- setting set agentic_checkout on|off
 *   npm run --silent admin -- store set-status SLUG active|suspended|closed
 *   npm run --silent admin -- order mark ORDER shipped|delivered [--tracking T]
 *   npm run --silent admin -- cleanup
 *
 * Each works on DATABASE_URL, or on the embedded folder (EMBEDDED_DATA_DIR, default .data/pglite)
 * when it is unset and the app is stopped. The result is the last line of stdout (notes go to
 * stderr). Exit 0 on success; 2 with a one-line reason on stderr when the command line is wrong
 * (nothing is written); 1 when the database cannot be used (unreachable, not migrated, the
 * embedded folder open in another process). This file parses and prints; the work is lib's.
 */
import { parseArgs } from "node:util";
import { createOrResetUser } from "../lib/accounts/create-user";
import { makeDemoBuyer } from "../lib/accounts/demo-buyer";
import { checkName, checkPassword, normaliseEmail, ROLES, type Role } from "../lib/accounts/users";
import { audited, auditSucceeded, type AuditActor } from "../lib/audit";
import { checkExpiryDays, createApiKey, normaliseScopes, revokeApiKey } from "../lib/auth/api-keys";
import { closeDb, createDb, type PrismaClient } from "../lib/db";
import { embeddedDataDir, embeddedFolderHolder, seedEmbeddedWith } from "../lib/db/embedded";
import { pendingMigrations } from "../lib/db/migrate";
import { AppError } from "../lib/errors";
import { cleanup, summaryLine } from "../lib/maintenance/cleanup";
import { checkTrackingNumber, markOrder, orderRefWhere } from "../lib/orders";
import { isSettingName, SETTINGS, setSetting } from "../lib/settings";
import { seedCatalog } from "../lib/seed/seed";
import { findStoreBySlug, isStoreStatus, setStoreStatus, STORE_STATUSES } from "../lib/stores/status";

// Without DATABASE_URL, the embedded database's first start seeds it.
seedEmbeddedWith(seedCatalog);

/** The command line is wrong: exit 2, nothing written. */
class BadInput extends Error {}
/** The database cannot be used: exit 1. */
class DatabaseUnavailable extends Error {}

/** What a command does once its input is checked: its result line, and a note for stderr. */
/** Changes to a store made here are the operator's, in its audit log (lib/audit/). */
const OPERATOR: AuditActor = { type: "operator" };

type Run = (client: PrismaClient) => Promise<{ result: string; note?: string }>;

interface Command {
  usage: string;
  /** Flags, each taking a value. */
  flags: string[];
  /** Flags taking no value (present: "true"). */
  switches?: string[];
  required: string[];
  /** Names of the positional arguments, in order (all required). */
  positionals: string[];
  /** Checks the input (throwing BadInput or AppError) before the database is opened. */
  prepare(flags: Record<string, string | undefined>, positionals: string[]): Run;
}

const DEFAULT_KEY_NAME = "Operator key";
/** Where each `param` of an AppError came from on the command line. */
const PARAM_SOURCE: Record<string, string> = {
  email: "--email",
  password: "--password",
  name: "--name",
  role: "--role",
  store: "--store",
  scopes: "--scopes",
  tracking_number: "--tracking",
  expires_in_days: "--expires-in",
};

const COMMANDS: Record<string, Command> = {
  "user create": {
    usage: "user create --email E --password P [--name N] [--role shopper|store_owner|admin] [--store SLUG] [--demo-buyer]",
    flags: ["email", "password", "name", "role", "store"],
    switches: ["demo-buyer"],
    required: ["email", "password"],
    positionals: [],
    prepare(flags) {
      const email = normaliseEmail(flags.email!);
      const password = checkPassword(flags.password!);
      checkName(flags.name);
      const role = flags.role;
      if (role !== undefined && !(ROLES as readonly string[]).includes(role)) {
        throw new BadInput(`--role is one of ${ROLES.join(", ")}, not '${role}'`);
      }
      const store = flags.store;
      if (store !== undefined) checkSlug("--store", store);
      if (store !== undefined && role === "shopper") throw new BadInput("--role: an owner of a store cannot be a shopper");
      const demoBuyer = flags["demo-buyer"] === "true";
      return async (client) => {
        const { user, demo } = await client.$transaction(async (tx) => {
          const user = await createOrResetUser(tx, { email, password, name: flags.name, role: role as Role | undefined, store });
          // A demo buyer can check out at once: a default US address and the saved test card.
          return { user, demo: demoBuyer ? await makeDemoBuyer(tx, user.id) : null };
        });
        const did = user.created ? `created ${email} (${role ?? (store ? "store_owner" : "shopper")})` : `reset the password of ${email}`;
        const ready = demo
          ? `; ready to check out (${demo.addressAdded ? "added a default address" : "kept its default address"}, ` +
            `${demo.cardAdded ? "saved the test card" : "the test card was saved already"})`
          : "";
        return { result: user.id, note: `${did}${store ? `, an owner of ${store}` : ""}${ready}` };
      };
    },
  },

  "key create": {
    usage: "key create --store SLUG --scopes listings:read,listings:write,shipping:write,orders:read,orders:write [--name N] [--expires-in DAYS]",
    flags: ["store", "scopes", "name", "expires-in"],
    required: ["store", "scopes"],
    positionals: [],
    prepare(flags) {
      const slug = checkSlug("--store", flags.store!);
      const scopes = normaliseScopes(flags.scopes!.split(",").map((s) => s.trim()));
      const name = flags.name ?? DEFAULT_KEY_NAME;
      const expiresInDays = checkExpiryDays(flags["expires-in"]);
      return async (client) => {
        const store = await findStoreBySlug(client, slug);
        if (!store) throw new BadInput(`--store: no store has the slug '${slug}'`);
        const { key, summary } = await audited(
          client,
          { storeId: store.id, actor: OPERATOR, action: "api_keys.create", target: { type: "api_key", id: null } },
          (tx) => createApiKey(tx, { storeId: store.id, name, scopes, expiresInDays }),
          (created) => ({ type: "api_key", id: `mk_live_${created.summary.keyId}` }),
        );
        return {
          result: key,
          note:
            `created ${summary.display} (${scopes.join(",")}) for ${slug}${summary.expiresAt ? `, expiring ${summary.expiresAt.toISOString()}` : ""}; the full key is shown this once. ` +
            `Revoke it with: npm run admin -- key revoke ${summary.keyId}`,
        };
      };
    },
  },

  "key revoke": {
    usage: "key revoke KEY_ID",
    flags: [],
    required: [],
    positionals: ["KEY_ID"],
    prepare(_flags, [given]) {
      // KEY_ID is the `<key_id>` of `mk_live_<key_id>.<secret>`; the key's display form names it too.
      const keyId = given!.replace(/^mk_live_/, "").replace(/\..*$/s, "");
      if (!/^[a-z0-9]{16}$/.test(keyId)) {
        throw new BadInput(`KEY_ID is the 16 characters after mk_live_ in a key, not '${given}'`);
      }
      return async (client) => {
        const revoked = await client.$transaction(async (tx) => {
          const summary = await revokeApiKey(tx, keyId);
          if (summary) await auditSucceeded(tx, { storeId: summary.storeId, actor: OPERATOR, action: "api_keys.revoke", target: { type: "api_key", id: `mk_live_${keyId}` } });
          return summary;
        });
        if (!revoked) throw new BadInput(`KEY_ID: no API key has the key id '${keyId}'`);
        return { result: "revoked", note: `revoked ${revoked.display}` };
      };
    },
  },

  "setting set": {
    usage: `setting set ${Object.keys(SETTINGS).join("|")} on|off`,
    flags: [],
    required: [],
    positionals: ["NAME", "VALUE"],
    prepare(_flags, [name, value]) {
      if (!isSettingName(name!)) throw new BadInput(`unknown setting '${name}'; settings are ${Object.keys(SETTINGS).join(", ")}`);
      if (value !== "on" && value !== "off") throw new BadInput(`${name} is on or off, not '${value}'`);
      return async (client) => {
        const on = await setSetting(client, name, value);
        return { result: on ? "on" : "off" };
      };
    },
  },

  "store set-status": {
    usage: "store set-status SLUG active|suspended|closed",
    flags: [],
    required: [],
    positionals: ["SLUG", "STATUS"],
    prepare(_flags, [given, status]) {
      const slug = checkSlug("SLUG", given!);
      if (!isStoreStatus(status!)) throw new BadInput(`STATUS is one of ${STORE_STATUSES.join(", ")}, not '${status}'`);
      return async (client) => {
        const now = await setStoreStatus(client, slug, status);
        if (!now) throw new BadInput(`SLUG: no store has the slug '${slug}'`);
        return { result: now };
      };
    },
  },

  "order mark": {
    usage: "order mark ORDER shipped|delivered [--tracking T]",
    flags: ["tracking"],
    required: [],
    positionals: ["ORDER", "STATUS"],
    prepare(flags, [ref, status]) {
      if (!orderRefWhere(ref)) throw new BadInput(`ORDER is an order's id or number (M-10042), not '${ref}'`);
      if (status !== "shipped" && status !== "delivered") throw new BadInput(`STATUS is shipped or delivered, not '${status}'`);
      if (flags.tracking !== undefined && status !== "shipped") throw new BadInput("--tracking goes with shipped only");
      const tracking = flags.tracking === undefined ? undefined : checkTrackingNumber(flags.tracking);
      return async (client) => {
        try {
          // What a support agent does when a carrier reports: every part still placed ships (with
          // the tracking number, when given), or every shipped part is delivered.
          return { result: await client.$transaction((tx) => markOrder(tx, ref!, status, tracking)) };
        } catch (err) {
          if (err instanceof AppError && err.code === "order_not_found") throw new BadInput(`ORDER: no order has the id or number '${ref}'`);
          if (err instanceof AppError && err.code === "order_transition_invalid") throw new BadInput(err.message);
          throw err;
        }
      };
    },
  },

  cleanup: {
    usage: "cleanup",
    flags: [],
    required: [],
    positionals: [],
    prepare() {
      return async (client) => {
        const counts = await cleanup(client);
        return { result: summaryLine(counts) };
      };
    },
  },
};

const USAGE = [
  "usage: npm run --silent admin -- <command>",
  ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
  "Works on DATABASE_URL, or on the embedded folder (EMBEDDED_DATA_DIR, default .data/pglite) when it is unset and the app is stopped.",
].join("\n");

/** A slug as typed; whether a store has it is the database's to say. */
function checkSlug(source: string, slug: string): string {
  if (slug === "" || slug.length > 200 || /[\u0000-\u001f\u007f]/.test(slug)) {
    throw new BadInput(`${source}: no store has the slug '${slug}'`);
  }
  return slug;
}

/** Reads the command line into a command ready to run (or throws BadInput). */
function parse(argv: string[]): Run {
  if (argv.length === 0) throw new BadInput(`no command given; commands: ${Object.keys(COMMANDS).join(", ")} (--help for usage)`);
  // Commands are one word (`cleanup`) or two (`user create`).
  const words = Object.hasOwn(COMMANDS, argv[0]!) ? 1 : 2;
  const name = argv.slice(0, words).join(" ");
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : undefined;
  if (!command) {
    throw new BadInput(`unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(", ")} (--help for usage)`);
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv.slice(words),
      options: Object.fromEntries([
        ...command.flags.map((f) => [f, { type: "string", multiple: true }] as const),
        ...(command.switches ?? []).map((f) => [f, { type: "boolean", multiple: true }] as const),
      ]),
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new BadInput(`${parseError(err)} (usage: ${command.usage})`);
  }
  const flags: Record<string, string | undefined> = {};
  for (const [flag, values] of Object.entries(parsed.values)) {
    const list = values as Array<string | boolean>;
    if (list.length > 1) throw new BadInput(`--${flag} is given ${list.length} times`);
    flags[flag] = String(list[0]);
  }
  for (const flag of command.required) {
    if (flags[flag] === undefined) throw new BadInput(`--${flag} is required (usage: ${command.usage})`);
  }
  const positionals = parsed.positionals;
  if (positionals.length < command.positionals.length) {
    throw new BadInput(`${command.positionals[positionals.length]} is missing (usage: ${command.usage})`);
  }
  if (positionals.length > command.positionals.length) {
    throw new BadInput(`unexpected argument '${positionals[command.positionals.length]}' (usage: ${command.usage})`);
  }
  try {
    return command.prepare(flags, positionals);
  } catch (err) {
    throw asBadInput(err);
  }
}

function parseError(err: unknown): string {
  const { code, message } = err as { code?: string; message?: string };
  const option = /'(?:-\w, )?(--?[^' <]+)/.exec(message ?? "")?.[1] ?? "";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown flag '${option}'`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return /does not take an argument/.test(message ?? "") ? `${option} takes no value` : `${option} needs a value`;
  }
  return (message ?? String(err)).split("\n")[0]!;
}

/** A domain module's refusal of a value, worded for the command line. */
function asBadInput(err: unknown): unknown {
  if (!(err instanceof AppError) || err.status !== 400) return err;
  const source = err.param ? (PARAM_SOURCE[err.param] ?? err.param) : undefined;
  return new BadInput(source ? `${source}: ${err.message}` : err.message);
}

/** The database the command works on, or DatabaseUnavailable saying why not. */
async function open(): Promise<PrismaClient> {
  if (!process.env.DATABASE_URL) {
    const dir = embeddedDataDir();
    const holder = embeddedFolderHolder(dir);
    if (holder !== null) {
      throw new DatabaseUnavailable(
        `the embedded database in ${dir} is open in another process (pid ${holder}); stop the app first, or set DATABASE_URL`,
      );
    }
  }
  const client = createDb();
  let pending: string[];
  try {
    pending = await pendingMigrations(client);
  } catch (err) {
    await closeDb(client).catch(() => {});
    const where = process.env.DATABASE_URL ? "the database of DATABASE_URL" : `the embedded database in ${embeddedDataDir()}`;
    throw new DatabaseUnavailable(`cannot use ${where}: ${firstLine(err)}`);
  }
  if (pending.length > 0) {
    await closeDb(client);
    const which = pending.length === 1 ? `migration ${pending[0]} is` : `${pending.length} migrations (from ${pending[0]}) are`;
    throw new DatabaseUnavailable(`the database is not up to date: ${which} not applied; run npm run db:migrate first`);
  }
  return client;
}

/** The telling line of an error (drivers' and Prisma's messages end with the reason). */
function firstLine(err: unknown): string {
  const lines = (err instanceof Error ? err.message : String(err)).split("\n").map((l) => l.trim());
  return lines.filter(Boolean).at(-1) ?? "unknown error";
}

/** Control characters of a value the operator typed are shown escaped, so a reason stays one line. */
function printable(text: string): string {
  const shown = text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return shown.length > 500 ? `${shown.slice(0, 500)}…` : shown;
}

// The result is the only line of stdout: what the app's modules log there while a command runs
// (the JSON line announcing an e-mail, such as the buyer's "your order has shipped") is a note,
// and goes to stderr.
const printResult = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

async function main(argv: string[]): Promise<number> {
  if (argv.length === 1 && ["help", "--help", "-h"].includes(argv[0]!)) {
    printResult(`${USAGE}\n`);
    return 0;
  }
  const run = parse(argv);
  const client = await open();
  try {
    const { result, note } = await run(client);
    if (note) process.stderr.write(`${printable(note)}\n`);
    printResult(`${result}\n`);
    return 0;
  } catch (err) {
    throw asBadInput(err);
  } finally {
    await closeDb(client);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const reason = err instanceof BadInput || err instanceof DatabaseUnavailable ? err.message : `failed: ${firstLine(err)}`;
    process.stderr.write(`admin: ${printable(reason)}\n`);
    process.exitCode = err instanceof BadInput ? 2 : 1;
  },
);
