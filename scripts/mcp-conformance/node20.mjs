// The conformance runner imports `globSync` from "fs", which Node 22 added; it uses it only for
// its `tier-check` command. On an older Node this gives it an fs module with a globSync that
// throws, so that the `server` command runs. On Node 22+ it does nothing.
import fs from "node:fs";
import { register } from "node:module";

if (typeof fs.globSync !== "function") register("./node20-hooks.mjs", import.meta.url);
