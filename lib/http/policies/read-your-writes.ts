import { catalogChangesHeard } from "@/lib/db/changes";
import { noteWrite } from "@/lib/db/replicas";
import type { Policy } from "../pipeline";

/**
 * A request that may have written answers only once this instance has heard the catalog changes
 * it committed (lib/db/changes.ts `catalogChangesHeard`): a client that writes, then reads the
 * public record on the same instance, reads what it wrote, never a kept copy from before. Placed
 * outside the transaction, so it runs after the commit; an answer of 400 or more wrote nothing.
 * With read replicas, this instance's catalog reads also go to the primary until a replica has
 * replayed the write (lib/db/replicas.ts `noteWrite`).
 */
export const readYourWrites: Policy = async (ctx, next) => {
  const response = await next();
  if (response.status < 400) {
    noteWrite();
    await catalogChangesHeard();
  }
  return response;
};
