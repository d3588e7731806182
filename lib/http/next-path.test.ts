/** Where a person goes after signing in: `next` only when it is a path on this site. */
import { describe, expect, it } from "vitest";
import { safeNextPath } from "./next-path";

describe("safeNextPath", () => {
  it.each([
    ["/cart", "/cart"],
    ["/p/some-product?x=1#offers", "/p/some-product?x=1#offers"],
    ["/search?q=a%2F%2Fb", "/search?q=a%2F%2Fb"],
    ["/a/../account", "/account"],
  ])("keeps the same-site path %j", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it.each([
    "//evil.com",
    "///evil.com",
    "/\\evil.com",
    "/.//evil.com",
    "/a/..//evil.com",
    "/a/%2e%2e//evil.com",
    "/\t/evil.com",
    "/\n/evil.com",
    "https://evil.com",
    "http:evil.com",
    "javascript:alert(1)",
    "evil.com",
    " /cart",
    "\u0000/cart",
    "/cart\u0000",
    "",
    "/" + "a".repeat(2000),
  ])("refuses %j (falls back)", (next) => {
    expect(safeNextPath(next)).toBe("/account");
    expect(safeNextPath(next, "")).toBe("");
  });

  it("keeps only the paths `within` accepts, as resolved", () => {
    const seller = (path: string) => path.startsWith("/seller/s/");
    expect(safeNextPath("/seller/s/listings?x=1", "/seller/s/", seller)).toBe("/seller/s/listings?x=1");
    expect(safeNextPath("/seller/t/listings", "/seller/s/", seller)).toBe("/seller/s/");
    expect(safeNextPath("/seller/s/../t/listings", "/seller/s/", seller)).toBe("/seller/s/");
    expect(safeNextPath("//seller/s/", "/seller/s/", seller)).toBe("/seller/s/");
  });

  it("refuses what is not a string", () => {
    for (const value of [undefined, null, 42, ["/cart"], { toString: () => "/cart" }]) expect(safeNextPath(value)).toBe("/account");
  });
});
