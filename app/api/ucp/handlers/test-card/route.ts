import { ipAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { pipeline } from "@/lib/http/pipeline";
import { observe } from "@/lib/http/policies/observe";
import { testCardHandlerSpec } from "@/lib/protocols/ucp";

/** The test-card payment handler's specification (its `spec` URL in the business profile). */
export const GET = pipeline("ucp.handler_spec", [observe, ...ipAccess("catalog").policies], async () =>
  Response.json(testCardHandlerSpec(), { headers: { "Cache-Control": "public, max-age=3600" } }),
);
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
