import { PUBLIC_ERROR_CODES } from "@/lib/errors";
import { RejectedLine } from "./cart";
import { z } from "./zod";

export const ErrorEnvelope = z
  .object({
    error: z
      .object({
        type: z.enum(["invalid_request_error", "not_found_error", "method_not_allowed_error", "rate_limit_error", "api_error"]),
        code: z.enum(PUBLIC_ERROR_CODES).openapi({ description: "Stable snake_case reason." }),
        message: z.string().openapi({ description: "Human-readable explanation; do not parse." }),
        param: z.string().optional().openapi({ description: "The offending input, as the client sent it (`page_size`, `items[2].quantity`)." }),
        rejected: z
          .array(RejectedLine)
          .optional()
          .openapi({ description: "Only on POST /cart-links when no line is purchasable (`code: no_purchasable_lines`)." }),
        request_id: z.string(),
      })
      .strict(),
  })
  .strict()
  .openapi("Error");
