import { describe, expect, it } from "vitest";
import { decodeFlash } from "./flash";
import { backWithFlash, plainNotFound, seeOther, withParams } from "./form-answer";

describe("seeOther", () => {
  it("answers 303 to the location, never cached, with no body", async () => {
    const response = seeOther("/account?notice=address_added");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/account?notice=address_added");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toBe("");
  });

  it("takes cookies (sign-in, checkout)", () => {
    const response = seeOther("/checkout?refused=x");
    response.cookies.set("checkout_flash", "v", { path: "/checkout" });
    expect(response.headers.get("set-cookie")).toMatch(/^checkout_flash=v; Path=\/checkout/);
  });
});

describe("withParams", () => {
  it("sets the parameters and keeps the others", () => {
    expect(withParams("/seller/s/listings?status=active&page=2", { notice: "quantity" })).toBe("/seller/s/listings?status=active&page=2&notice=quantity");
  });

  it("drops the notice and flash of an earlier post", () => {
    expect(withParams("/seller/s/listings?notice=updated&flash=abc&q=x", { flash: "new" })).toBe("/seller/s/listings?q=x&flash=new");
    expect(withParams("/account?flash=abc", {})).toBe("/account");
  });

  it("leaves out a parameter given as undefined", () => {
    expect(withParams("/account", { notice: undefined })).toBe("/account");
  });
});

describe("backWithFlash", () => {
  const flash = { form: "return-shop", message: "Choose a reason.", field: "reason.1", values: { "quantity.1": "2" } };

  it("answers 303 to the page with the signed flash in its query", () => {
    const response = backWithFlash("/account/orders/1001?notice=return_requested", flash);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!, "http://x");
    expect(location.pathname).toBe("/account/orders/1001");
    expect(location.searchParams.has("notice")).toBe(false);
    expect(decodeFlash(location.searchParams.get("flash"))).toEqual(flash);
  });

  it("adds the fragment when given one", () => {
    expect(backWithFlash("/account/orders/1001", flash, "returns").headers.get("location")).toMatch(/^\/account\/orders\/1001\?flash=[^#]+#returns$/);
    expect(backWithFlash("/account/orders/1001", flash).headers.get("location")).not.toContain("#");
  });
});

describe("plainNotFound", () => {
  it("answers 404 as plain text, never cached", async () => {
    const response = plainNotFound("Not found: no such thing.");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toBe("Not found: no such thing.");
  });
});
