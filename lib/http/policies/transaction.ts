import { transaction } from "../database";
import type { Policy } from "../pipeline";

/**
 * The handler (and the idempotency record) write in one database transaction (lib/http/database.ts,
 * the doors' one way to open one): anything thrown rolls all of it back, so a failed request
 * leaves nothing behind.
 */
export const inTransaction: Policy = (ctx, next) =>
  transaction(async (tx) => {
    ctx.tx = tx;
    try {
      return await next();
    } finally {
      ctx.tx = undefined;
    }
  });
