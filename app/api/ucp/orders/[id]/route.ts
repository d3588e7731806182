import { withDb } from "@/lib/http/database";
import { ucpCaller, ucpOtherMethods, ucpRoute } from "@/lib/http/protocols/ucp";
import { ucpOrder } from "@/lib/protocols/ucp";

/** An order of a UCP checkout (one store's part), as UCP's order capability shows it. */
export const GET = ucpRoute("order.get", {}, async (ctx) => ({ status: 200, body: await withDb((client) => ucpOrder(client, ctx.params.id, { userId: ucpCaller(ctx).holder?.userId ?? null })) }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = ucpOtherMethods(["GET"]);
