import type { z } from "zod";

/**
 * A body that takes exactly one of several fields (`product_id`, `gtin` or `product`): adds the
 * issue when none or more than one is given, its message naming every alternative. None given is
 * reported at the first alternative with `params.missing`, so the body validator answers
 * `parameter_missing` with this message rather than "Missing required field" for one of them.
 */
export function exactlyOneOf<T extends object>(body: T, ctx: z.RefinementCtx, keys: readonly [keyof T & string, keyof T & string, ...(keyof T & string)[]]): void {
  const given = keys.filter((k) => body[k] !== undefined);
  if (given.length === 1) return;
  const names = `${keys.slice(0, -1).join(", ")} or ${keys[keys.length - 1]}`;
  if (given.length === 0) {
    ctx.addIssue({ code: "custom", path: [keys[0]], message: `give exactly one of ${names}`, params: { missing: true } });
  } else {
    ctx.addIssue({ code: "custom", path: [given[1]!], message: `give exactly one of ${names} (${given.join(" and ")} were given)` });
  }
}
