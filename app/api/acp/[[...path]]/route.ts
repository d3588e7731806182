import { acpNotFound } from "@/lib/http/protocols/acp";

// Anything under the ACP base URL that names no operation: ACP's 404.
export const { GET, POST, PUT, PATCH, DELETE } = acpNotFound();
