import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

// The schemas are the contract: they validate requests, describe responses, and generate
// openapi.json and the MCP tool schemas. `.openapi()` adds the documentation metadata.
extendZodWithOpenApi(z);

export { z };
