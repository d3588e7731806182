import { ipAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { pipeline } from "@/lib/http/pipeline";
import { observe } from "@/lib/http/policies/observe";
import { TEST_CARD_CONFIG_SCHEMA } from "@/lib/protocols/ucp";

/** The JSON Schema of the test-card handler's `config` (its `config_schema` URL). */
export const GET = pipeline("ucp.handler_config_schema", [observe, ...ipAccess("catalog").policies], async () =>
  Response.json(TEST_CARD_CONFIG_SCHEMA, { headers: { "Cache-Control": "public, max-age=3600" } }),
);
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
