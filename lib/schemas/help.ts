import { z } from "./zod";

/** Limits of the help search (the MCP `search_help` tool). */
export const HELP_SEARCH_LIMITS = { qMaxLength: 200 } as const;

export const HelpSearchRequest = z
  .object({
    q: z
      .string({ error: "must be a string" })
      .refine((v) => [...v].length <= HELP_SEARCH_LIMITS.qMaxLength, {
        error: `must be at most ${HELP_SEARCH_LIMITS.qMaxLength} characters`,
      })
      .refine((v) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(v), { error: "must not contain control characters" })
      .optional()
      .openapi({
        type: "string",
        maxLength: HELP_SEARCH_LIMITS.qMaxLength,
        description:
          "Words to look for in the articles' titles, summaries and text; every word must appear. Omit to list every article.",
        example: "return policy",
      }),
  })
  .strict()
  .openapi("HelpSearchRequest");
export type HelpSearchRequestData = z.output<typeof HelpSearchRequest>;

export const HelpArticlePath = z
  .object({
    slug: z
      .string({ error: "must be a string" })
      .openapi({ description: "Slug of a help article, as in its page path /help/{slug}.", example: "buying-with-a-cart-link" }),
  })
  .strict()
  .openapi("HelpArticlePath");

export const HelpArticleSummary = z
  .object({
    slug: z.string(),
    title: z.string(),
    summary: z.string(),
    url: z.string().openapi({ description: "Absolute URL of the article's page, {base}/help/{slug}." }),
  })
  .strict()
  .openapi("HelpArticleSummary");
export type HelpArticleSummaryData = z.output<typeof HelpArticleSummary>;

export const HelpArticle = z
  .object({
    slug: z.string(),
    title: z.string(),
    summary: z.string(),
    body: z.string().openapi({ description: "The article in Markdown, as /help/{slug} renders it." }),
    url: z.string().openapi({ description: "Absolute URL of the article's page, {base}/help/{slug}." }),
    updated_at: z.string().openapi({ description: "RFC 3339 UTC with milliseconds." }),
  })
  .strict()
  .openapi("HelpArticle");
export type HelpArticleData = z.output<typeof HelpArticle>;

export const HelpSearchMeta = z
  .object({ count: z.number().int().openapi({ description: "Number of articles returned." }), request_id: z.string() })
  .strict()
  .openapi("HelpSearchMeta");
