import { webhookSecretRoute } from "../../../../../_lib/webhooks";

// The new endpoint's signing secret, shown once to whoever added it.
export const GET = webhookSecretRoute(false);
