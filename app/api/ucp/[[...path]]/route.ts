import { ucpNotFound } from "@/lib/http/protocols/ucp";

// Anything under the UCP endpoint that names no operation: UCP's 404.
export const { GET, POST, PUT, PATCH, DELETE } = ucpNotFound();
