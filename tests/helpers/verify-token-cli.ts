/**
 * `tsx tests/helpers/verify-token-cli.ts <access token> <buyer_api|agent_mcp>`: what the resource
 * side (lib/oauth/verify.ts) says of a token, as one line (`ok` or the refusal's code). For the
 * Playwright suite, whose loader cannot import the generated Prisma client; DATABASE_URL and
 * PUBLIC_BASE_URL name the app's database and address.
 */
import { closeDb, db } from "../../lib/db";
import { authenticateAccessToken } from "../../lib/oauth/verify";

async function main() {
  const [token = "", resource = "buyer_api"] = process.argv.slice(2);
  try {
    await authenticateAccessToken(token, resource as "buyer_api" | "agent_mcp");
    process.stdout.write("ok\n");
  } catch (err) {
    process.stdout.write(`${(err as { code?: string }).code ?? String(err)}\n`);
  } finally {
    await closeDb(db());
  }
}

void main();
