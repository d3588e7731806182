import { oauthAccess } from "@/lib/http/access";
import { defineEndpoint } from "@/lib/http/describe";
import { BuyerUser } from "@/lib/schemas/buyer";
import { itemEnvelope } from "@/lib/schemas/seller/common";

export const getProfileEndpoint = defineEndpoint({
  name: "buyer.me",
  method: "GET",
  path: "/me",
  operationId: "getProfile",
  summary: "Retrieve the account holder",
  description: "The account holder this token acts for.",
  tags: ["Profile"],
  access: oauthAccess("buyer_api", ["profile:read"]),
  success: { status: 200, description: "The holder.", schema: itemEnvelope(BuyerUser) },
  errors: [],
});
