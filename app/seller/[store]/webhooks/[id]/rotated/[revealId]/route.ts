import { webhookSecretRoute } from "../../../../../_lib/webhooks";

// The rotated signing secret, shown once to whoever rotated it.
export const GET = webhookSecretRoute(true);
