import { db } from "@/lib/db";
import type { Policy } from "../pipeline";

/**
 * The handler (and the idempotency record) write in one database transaction: anything thrown
 * rolls all of it back, so a failed request leaves nothing behind.
 */
export const inTransaction: Policy = (ctx, next) =>
  db().$transaction(
    async (tx) => {
      ctx.tx = tx;
      try {
        return await next();
      } finally {
        ctx.tx = undefined;
      }
    },
    // Under a burst, requests queue for a pooled connection rather than fail.
    { maxWait: 10_000, timeout: 15_000 },
  );
