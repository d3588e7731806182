import { describe, expect, it } from "vitest";
import { lagFloor, parseLsn, replicaUrls } from "./replicas";

describe("replica lag rules (lib/db/replicas.ts)", () => {
  it("WAL positions compare as numbers", () => {
    expect(parseLsn("0/16B3748")).toBe(0x16b3748n);
    expect(parseLsn("1/0") > parseLsn("0/FFFFFFFF")).toBe(true);
    expect(parseLsn("16/B374D848")).toBe((0x16n << 32n) + 0xb374d848n);
  });

  it("a replica must have replayed what the primary had written the bound ago", () => {
    const history = [
      { at: 1_000, lsn: 10n },
      { at: 1_500, lsn: 20n },
      { at: 2_000, lsn: 30n },
    ];
    expect(lagFloor(history, 2_600, 1_000)).toBe(20n); // the newest sample at least 1 s old
    expect(lagFloor(history, 3_100, 1_000)).toBe(30n);
    // No sample that old yet: the oldest one (stricter), and nothing without samples.
    expect(lagFloor(history, 1_200, 1_000)).toBe(10n);
    expect(lagFloor([], 5_000, 1_000)).toBeNull();
  });

  it("DATABASE_REPLICA_URLS is comma-separated, blanks ignored", () => {
    expect(replicaUrls(" postgresql://a:1/x ,, postgresql://b:2/x,")).toEqual(["postgresql://a:1/x", "postgresql://b:2/x"]);
    expect(replicaUrls(undefined)).toEqual([]);
  });
});
