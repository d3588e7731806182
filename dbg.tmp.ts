import { db } from "@/lib/db";
import { searchStatements, categoryScope } from "@/lib/catalog/search";
import { SearchQuery } from "@/lib/schemas/catalog";
import { queryObject } from "@/lib/http/query";
const qs = process.argv.slice(2);
(async () => {
  for (const q of qs) {
    const p = SearchQuery.parse(queryObject(new URLSearchParams(q)));
    const scope = p.category ? await categoryScope(p.category) : null;
    const st = searchStatements(p, scope);
    const out: string[] = [];
    for (const [k, s] of Object.entries(st)) {
      const plan = await db().$queryRawUnsafe<any[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${s.text}`, ...s.values);
      const j = plan[0]["QUERY PLAN"][0];
      out.push(`${k} plan ${j["Planning Time"].toFixed(1)} exec ${j["Execution Time"].toFixed(1)}`);
    }
    console.log(q.padEnd(50), out.join(" | "));
  }
  process.exit(0);
})();
