import { CURRENCY } from "@/lib/currency";
import { AppError } from "@/lib/errors";

/** The ACP release this seller implements (API-Version), vendored at vendor/acp/2026-04-17. */
export const ACP_VERSION = "2026-04-17";

/** The marketplace's currency as ACP writes ISO 4217 codes: lower case. */
export const ACP_CURRENCY = CURRENCY.toLowerCase();

/** Every request names the version it speaks (`API-Version`); another one is 400 with the versions served. */
export function checkApiVersion(header: string | null): void {
  if (header === null || header.trim() === "") {
    throw new AppError("acp_api_version_unsupported", `Send API-Version: ${ACP_VERSION}.`, "API-Version");
  }
  if (header.trim() !== ACP_VERSION) {
    throw new AppError("acp_api_version_unsupported", `API version '${header.trim().slice(0, 40)}' is not supported: this seller speaks ${ACP_VERSION}.`, "API-Version");
  }
}
