import { PUBLIC_CORS_HEADERS } from "../cors";
import type { Policy } from "../pipeline";

/** Public surfaces answer any origin, without credentials (decisions.md); others send no CORS. */
export const publicCors: Policy = (ctx, next) => {
  ctx.cors = PUBLIC_CORS_HEADERS;
  return next();
};
