import { closeDb, createDb } from "../lib/db";
import { migrate } from "../lib/db/migrate";

const client = createDb(undefined, { maintenance: true });
migrate(client, (line) => console.log(line))
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => closeDb(client));
