import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Two projects so that `vitest run --project unit` (npm run test:unit) needs no build, database or
// server: only the integration project has the global setup (tests/setup/global.ts), which makes
// the run's template databases (migrated once, seeded once) and starts the built app
// (`next start`) on a copy of its own. Files that only read share that app; files that write
// make copies of their own. The timing reporter prints where the time went, per file.
export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL("./", import.meta.url)) },
  },
  test: {
    environment: "node",
    reporters: ["default", "./tests/setup/timing-reporter.ts"],
    // vitest's default is a worker per core but one, which is one worker on two cores: a file's
    // runner and the server it talks to then take turns and a core idles. Integration files mostly
    // wait on their servers, so at least two run at once.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ["tests/setup/per-file.ts"],
    testTimeout: 30_000,
    // Only a guard: a hook that makes a test app copies a database (seconds) and starts a server,
    // and a start that does not come fails by itself within 90 s, quoting the server's last lines
    // (tests/setup/app.ts), then stops it (up to 15 s): this comes after both, so the start's own
    // message is the one a failure shows.
    hookTimeout: 150_000,
    teardownTimeout: 30_000,
    projects: [
      {
        extends: true,
        // The pure rules' tests sit beside their modules (lib/orders/shipping.test.ts); tests/unit
        // holds the cross-cutting checks (docs, one definition, ports, the test server supervisor).
        test: { name: "unit", include: ["tests/unit/**/*.test.ts", "lib/**/*.test.ts"] },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/setup/global.ts"],
        },
      },
    ],
  },
});
