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
    agent_server: z
      .object({
        server_url: z.string().openapi({ description: "Absolute URL of the authenticated MCP endpoint for agents acting for an account holder." }),
        transport: z.literal("streamable-http"),
        authentication: z.literal("oauth").openapi({ description: "OAuth 2.1 (authorization code with PKCE); the access token goes in `Authorization: Bearer`." }),
        authorization_server_metadata_url: z.string().openapi({ description: "RFC 8414 metadata of the authorization server." }),
        protected_resource_metadata_url: z.string().openapi({ description: "RFC 9728 metadata of the agent MCP server (the URL its 401s point at)." }),
        scopes: z.array(z.string()).openapi({ description: "Scopes an agent may ask for; the holder grants each one on the consent page." }),
        buyer_api_url: z.string().openapi({ description: "The same operations as a JSON API (its own tokens: resource `/api/v1/buyer`)." }),
        buyer_openapi_url: z.string().openapi({ description: "The buyer API's OpenAPI 3.1 document." }),
        manage_url: z.string().openapi({ description: "Where the holder sees connected agents and revokes them, and sets agents' spending limits." }),
        summary: z.string().openapi({ description: "How it works, in a few sentences." }),
      })
      .strict()
      .openapi("AgentServerGuide", { description: "The authenticated server for agents that act for an account holder (cart, checkout, orders, returns)." }),
    notes: z.array(z.string()).openapi({ description: "Rules that apply to every client (rate limits, User-Agent, purchases)." }),
    docs_url: z.string().openapi({ description: "Help article about connecting agents, for people." }),
  })
  .strict()
  .openapi("ConnectionGuide");
export type ConnectionGuideData = z.output<typeof ConnectionGuide>;
