/**
 * The layers of docs/architecture.md ("The shape"), held by dependency-cruiser in `npm run lint`.
 * From the outside in, a layer imports only the layers below it:
 *
 *   app/ (and the entry points: instrumentation.ts, proxy.ts, scripts/, prisma/)
 *     -> doors:          lib/http, lib/endpoints, lib/openapi, lib/mcp, lib/protocols, lib/storefront, lib/seo
 *     -> domain:         lib/<domain> (accounts, agents, audit, auth, buyer, cart, ...)
 *     -> infrastructure: lib/db, lib/cache, lib/jobs, lib/net, lib/ratelimit, lib/schemas, lib/*.ts
 *
 * lib/seed is data the entry points hand to the embedded database (lib/db/embedded.ts
 * `seedEmbeddedWith`) or run (`npm run db:seed`): nothing in app/ or lib/ imports it.
 *
 * The report: `npx depcruise --config .dependency-cruiser.cjs app lib` (add `--output-type dot`
 * and pipe to `dot -T svg` for a picture).
 */

const DOORS = "^lib/(http|endpoints|openapi|mcp|protocols|storefront|seo)/";
const DOMAIN =
  "^lib/(accounts|agents|audit|auth|buyer|cart|catalog|checkout|email|help|maintenance|media|oauth|orders|payments|returns|seller|stores|webhooks)/";
const INFRASTRUCTURE = "^lib/(db|cache|jobs|net|ratelimit|schemas)/|^lib/[^/]+\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import cycle: a cycle ties its modules into one, whatever the folders say.",
      from: {},
      to: { circular: true },
    },
    {
      name: "app-not-to-db",
      severity: "error",
      comment:
        "app/ holds doors only: it hands the domain its database client through lib/http/database.ts " +
        "(withDb, transaction) or a route's ctx.db, and never imports lib/db.",
      from: { path: "^app/" },
      to: { path: "^lib/db/" },
    },
    {
      name: "lib-not-to-app",
      severity: "error",
      comment: "lib/ never imports app/: the routes sit on top of it.",
      from: { path: "^lib/" },
      to: { path: "^app/" },
    },
    {
      name: "domain-not-to-next",
      severity: "error",
      comment:
        "The domain knows nothing of HTTP or of Next.js: next/*, next-auth and React belong to the doors " +
        "(lib/http/session.ts holds the session cookie) and app/.",
      from: { path: DOMAIN },
      to: { path: "^node_modules/(next|next-auth|react|react-dom)/" },
    },
    {
      name: "domain-not-to-doors",
      severity: "error",
      comment: "The domain does not call its doors back: a door calls the domain.",
      from: { path: DOMAIN },
      to: { path: DOORS },
    },
    {
      name: "infrastructure-not-up",
      severity: "error",
      comment:
        "Infrastructure has no domain knowledge: it imports no domain folder and no door. The one " +
        "exception is lib/jobs/workers.ts, the job queue's workers: each runs the domain's (or the " +
        "order webhooks' door's) job, and only the entry points (instrumentation.ts, scripts/worker.ts) import it.",
      from: { path: INFRASTRUCTURE, pathNot: "^lib/jobs/workers\\.ts$" },
      to: { path: `${DOMAIN}|${DOORS}` },
    },
    {
      name: "only-entry-points-to-seed",
      severity: "error",
      comment:
        "lib/seed is the entry points' (instrumentation.ts, scripts/, prisma/seed.ts, tests): the embedded " +
        "database is given its seeder (seedEmbeddedWith), it does not import it.",
      from: { path: "^(app|lib)/", pathNot: "^lib/seed/" },
      to: { path: "^lib/seed/" },
    },
    {
      name: "lib-folder-in-a-layer",
      severity: "error",
      comment: "Every folder of lib/ is in one layer above (or is lib/seed): a new one is added to its list here and in docs/architecture.md.",
      from: { path: "^lib/", pathNot: `${DOORS}|${DOMAIN}|${INFRASTRUCTURE}|^lib/seed/` },
      to: {},
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to no file (a typo, or a path alias the config does not know).",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "^node_modules" },
    exclude: { path: "^(lib/db/generated|\\.next)/" },
    // Type-only imports count too: a cycle or a layer crossed by types is one all the same.
    tsPreCompilationDeps: true,
    // Resolves the `@/` alias of tsconfig.json.
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
