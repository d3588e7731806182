/**
 * Runs in each test file's context before its hooks: names the file for the timings its helpers
 * record (tests/setup/timings.ts).
 */
import { expect } from "vitest";
import { setTimingFile } from "./timings";

setTimingFile(expect.getState().testPath ?? "(unknown file)");
