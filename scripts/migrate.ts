import { closeDb, createDb } from "../lib/db";
import { seedEmbeddedWith } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { seedCatalog } from "../lib/seed/seed";

// Without DATABASE_URL, the embedded database's first start seeds it too.
seedEmbeddedWith(seedCatalog);
const client = createDb(undefined, { maintenance: true });
migrate(client, (line) => console.log(line))
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => closeDb(client));
