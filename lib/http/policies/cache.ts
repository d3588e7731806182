import type { CachePolicy } from "../cache-policies";
import type { Policy } from "../pipeline";

/** The answer is shared-cacheable under `policy` and revalidates by ETag (see lib/http/respond.ts). */
export function cacheFor(policy: CachePolicy): Policy {
  return (ctx, next) => {
    ctx.cache = policy;
    return next();
  };
}
