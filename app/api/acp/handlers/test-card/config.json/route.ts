import { ipAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { pipeline } from "@/lib/http/pipeline";
import { observe } from "@/lib/http/policies/observe";
import { TEST_CARD_DOCUMENTS } from "@/lib/protocols/acp";

/** A document of the ACP test-card payment handler (its `config` URL). */
export const GET = pipeline("acp.handler_config", [observe, ...ipAccess("catalog").policies], async () =>
  Response.json(TEST_CARD_DOCUMENTS.config, { headers: { "Cache-Control": "public, max-age=3600" } }),
);
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
