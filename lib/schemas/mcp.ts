import { z } from "./zod";

/** Result of the MCP `get_connection_guide` tool: how to connect common clients to this server. */
export const ConnectionGuide = z
  .object({
    server_url: z.string().openapi({ description: "Absolute URL of this MCP endpoint." }),
    transport: z.literal("streamable-http").openapi({ description: "MCP transport: streamable HTTP, POST only, stateless." }),
    authentication: z.literal("none").openapi({ description: "No account, key or OAuth; no cookie is read." }),
    clients: z.array(
      z
        .object({
          client: z.string().openapi({ description: "Stable identifier of the client, e.g. `claude_code`." }),
          name: z.string().openapi({ description: "Product name of the client." }),
          steps: z.string().openapi({ description: "What to do, in one or two sentences." }),
          snippet: z.string().openapi({ description: "Command or configuration to paste, with this server's URL filled in." }),
          snippet_language: z.enum(["shell", "json", "text"]),
        })
        .strict()
        .openapi("ConnectionGuideClient"),
    ),
    notes: z.array(z.string()).openapi({ description: "Rules that apply to every client (rate limits, User-Agent, purchases)." }),
    docs_url: z.string().openapi({ description: "Help article about connecting agents, for people." }),
  })
  .strict()
  .openapi("ConnectionGuide");
export type ConnectionGuideData = z.output<typeof ConnectionGuide>;
