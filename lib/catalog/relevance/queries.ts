/**
 * The queries of the relevance benchmark, each with the products it is meant to find, generated
 * from the searchable catalog: deterministic for a catalog and a seed (lib/random.ts).
 */
import { SEARCH_LIMITS } from "@/lib/schemas/catalog";
import { searchKey } from "../query";
import { Rng } from "@/lib/random";
import { addDiacritics, isEditableWord, nonsenseWord, normalise, replaceWord, toFullWidth, TYPOS, type TypoKind } from "./text";

/** A searchable product, as the benchmark sees it. */
export interface BenchProduct {
  id: string;
  title: string;
  description: string;
  brandId: string | null;
  brand: string | null;
  categoryId: string;
  /** Names of the product's (leaf) category and its ancestors, top-level first. */
  categories: string[];
  attributes: Record<string, unknown>;
}

/**
 * The query classes, in report order; `targeted`: the search engine is expected to meet the
 * targets; `floor: false`: of those, all but hit@3's floor (report.ts TARGETS.hit3Min), for classes
 * whose meaning is itself a judgement (the closest title) that the reference misses as often.
 */
export const QUERY_CLASSES = [
  { name: "exact", targeted: true, about: "the exact title (unique titles)" },
  { name: "swap", targeted: true, about: "one adjacent-letter swap in a word" },
  { name: "delete", targeted: true, about: "one letter deleted in a word" },
  { name: "insert", targeted: true, about: "one letter inserted in a word" },
  { name: "substitute", targeted: true, about: "one letter replaced in a word" },
  { name: "filler", targeted: true, about: "the title with filler words (cheap, best, for men, ...)" },
  { name: "unknown", targeted: true, about: "the title and a made-up word found nowhere in the catalog" },
  { name: "prefix", targeted: true, about: "the title with its last word cut short, as while typing" },
  { name: "attribute", targeted: true, about: "the title and one of the product's text attribute values" },
  {
    name: "closest",
    targeted: true,
    about: "a title less one word, which longer titles also hold (meant: the shortest titles holding every word)",
    floor: false,
  },
  { name: "closest_typo", targeted: true, floor: false, about: "the same with one typo in a word of 5+ letters" },
  { name: "brand_category", targeted: false, about: "brand name and leaf category name" },
  { name: "variant", targeted: false, about: "the title upper-cased, with diacritics, or in full-width characters" },
] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number]["name"];

export interface BenchQuery {
  class: QueryClass;
  q: string;
  /** Ids of the products the query means (any of them among the first k is a hit at k). */
  intended: string[];
  /** The product the query was made from. */
  source: string;
}

export interface GenerateOptions {
  perClass: number;
  seed: string;
  /** Only these classes (default: all). */
  classes?: readonly QueryClass[];
}

/** Filler people type around what they want; `{t}` is the title. */
export const FILLER_TEMPLATES = [
  "cheap {t}",
  "best {t}",
  "good {t}",
  "new {t}",
  "buy {t}",
  "men's {t}",
  "{t} for men",
  "{t} for women",
  "{t} for kids",
  "best {t} with free shipping",
  "buy cheap {t} for kids",
  "good new {t} for women",
] as const;

const VARIANTS = ["upper", "diacritics", "fullwidth"] as const;

const fits = (q: string) => [...q].length <= SEARCH_LIMITS.qMaxLength;

/** First product of each distinct normalised title (products in the given order). */
function firstPerTitle(products: BenchProduct[], title: (p: BenchProduct) => string): BenchProduct[] {
  const seen = new Set<string>();
  return products.filter((p) => {
    const key = title(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Text attribute values of a product not already part of its title: [key, value]. */
export function textAttributes(product: BenchProduct): Array<[string, string]> {
  const title = normalise(product.title);
  return Object.entries(product.attributes)
    .filter((e): e is [string, string] => typeof e[1] === "string" && /\p{L}/u.test(e[1]))
    .filter(([, value]) => !title.includes(normalise(value)))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Every word and text of the catalog, normalised: a made-up word must occur nowhere in it. */
function catalogText(products: BenchProduct[]): string {
  return products
    .map((p) =>
      normalise(
        [p.title, p.description, p.brand ?? "", ...p.categories, ...Object.values(p.attributes).map((v) => String(v))].join(" "),
      ),
    )
    .join("\n");
}

/**
 * Groups of near-identical titles ("Soy Wax Candle", "Heritage Soy Wax Candle - Cream", "Everyday
 * Basics Modern Soy Wax Candle"): a title's words less one, in key form (as the search reads
 * them), are held by several titles of different lengths, and no title is the query or a run of
 * its words. Meant: the products whose titles hold every word with the fewest words besides (the
 * closest). Null when the title makes no such query.
 */
function closestQuery(
  title: string,
  drop: number,
  holders: (words: string[]) => string[],
  keyWords: (id: string) => string[],
  isTitle: (key: string) => boolean,
): { q: string; intended: string[] } | null {
  const tokens = title.trim().split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t));
  if (tokens.length < 3) return null;
  const q = tokens.filter((_, i) => i !== drop % tokens.length).join(" ");
  const words = searchKey(q).split(" ");
  // A query holding another title as a run of its words ("Hybrid Bike" in "Hybrid Bike Black")
  // reads as that title and an attribute value (the attribute class): meant is not clear.
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j <= words.length; j++) if (isTitle(words.slice(i, j).join(" "))) return null;
  }
  const group = holders(words);
  const lengths = group.map((id) => keyWords(id).length);
  const shortest = Math.min(...lengths);
  // Several titles, of several lengths, none of them the query's words alone (that would rank
  // first as an equal title, whatever the lengths).
  if (group.length < 3 || shortest === Math.max(...lengths) || shortest <= new Set(words).size) return null;
  return { q, intended: group.filter((_, i) => lengths[i] === shortest) };
}

/**
 * About `perClass` queries of each class (fewer when the catalog has fewer candidates), in
 * QUERY_CLASSES order. Each class draws from its own streams of the seed, so changing one class
 * leaves the others' queries as they were.
 */
export function generateQueries(products: BenchProduct[], { perClass, seed, classes }: GenerateOptions): BenchQuery[] {
  const byId = new Map(products.map((p) => [p.id, p]));
  const normTitle = new Map(products.map((p) => [p.id, normalise(p.title)]));
  const titleOf = (p: BenchProduct) => normTitle.get(p.id)!;
  const byTitle = new Map<string, string[]>();
  for (const p of products) {
    const ids = byTitle.get(titleOf(p));
    if (ids) ids.push(p.id);
    else byTitle.set(titleOf(p), [p.id]);
  }
  const sameTitle = (p: BenchProduct) => byTitle.get(titleOf(p))!;
  const unique = products.filter((p) => sameTitle(p).length === 1);
  const distinctTitles = firstPerTitle(products, titleOf);
  let haystack: string | null = null;
  // Titles' words in key form, and which products' titles hold a word (for the closest classes).
  const keyWordsOf = new Map(products.map((p) => [p.id, searchKey(p.title).split(" ")]));
  let postings: Map<string, Set<string>> | null = null;
  const holders = (words: string[]) => {
    if (postings === null) {
      postings = new Map();
      for (const [id, ws] of keyWordsOf) for (const w of ws) (postings.get(w) ?? postings.set(w, new Set()).get(w)!).add(id);
    }
    const sets = [...new Set(words)].map((w) => postings!.get(w) ?? new Set<string>()).sort((a, b) => a.size - b.size);
    return [...sets[0]!].filter((id) => sets.every((set) => set.has(id)));
  };
  const keyWords = (id: string) => keyWordsOf.get(id)!;
  const titleKeys = new Set([...keyWordsOf.values()].map((ws) => ws.join(" ")));
  const isTitle = (key: string) => titleKeys.has(key);

  const out: BenchQuery[] = [];
  for (const { name } of QUERY_CLASSES) {
    if (classes && !classes.includes(name)) continue;
    const queries: BenchQuery[] = [];
    const add = (q: string | null, source: BenchProduct, intended: string[]) => {
      if (q !== null && queries.length < perClass && fits(q)) queries.push({ class: name, q, intended, source: source.id });
    };
    /**
     * Candidates in a seeded random order, offered until the class has its queries; what is
     * drawn for a candidate (`rng`) depends only on the seed, the class and that product. So a
     * product added to the catalog changes at most one query, not the whole sample.
     */
    const each = (candidates: BenchProduct[], make: (p: BenchProduct, rng: Rng, i: number) => void) => {
      const ranked = candidates
        .map((p) => ({ p, rank: new Rng(`relevance:${seed}:${name}:rank:${p.id}`).u32() }))
        .sort((a, b) => a.rank - b.rank || (a.p.id < b.p.id ? -1 : 1));
      for (const { p } of ranked) {
        if (queries.length >= perClass) break;
        make(p, new Rng(`relevance:${seed}:${name}:${p.id}`), queries.length);
      }
    };

    switch (name) {
      case "exact":
        each(unique, (p) => add(p.title, p, [p.id]));
        break;
      case "swap":
      case "delete":
      case "insert":
      case "substitute": {
        const typo = TYPOS[name as TypoKind];
        each(unique, (p, rng) => {
          const words = p.title.trim().split(/\s+/);
          const editable = words.flatMap((w, i) => (isEditableWord(w) ? [i] : []));
          for (const i of rng.sample(editable, editable.length)) {
            const edited = typo(words[i]!, rng);
            if (edited !== null) return add(replaceWord(p.title, i, edited), p, [p.id]);
          }
        });
        break;
      }
      case "filler":
        each(unique, (p, rng) => add(rng.pick(FILLER_TEMPLATES).replace("{t}", p.title), p, [p.id]));
        break;
      case "unknown": {
        haystack ??= catalogText(products);
        const text = haystack;
        each(unique, (p, rng) => {
          let word = nonsenseWord(rng);
          while (text.includes(word)) word = nonsenseWord(rng);
          add(rng.chance(0.5) ? `${p.title} ${word}` : `${word} ${p.title}`, p, [p.id]);
        });
        break;
      }
      case "prefix":
        each(distinctTitles, (p, rng) => {
          const words = p.title.trim().split(/\s+/);
          const last = words.at(-1)!;
          if (!isEditableWord(last)) return;
          const cut = [...last].slice(0, rng.int(3, [...last].length - 1)).join("");
          const q = replaceWord(p.title, words.length - 1, cut);
          const nq = normalise(q);
          add(q, p, products.filter((o) => titleOf(o).startsWith(nq)).map((o) => o.id));
        });
        break;
      case "attribute":
        each(products, (p, rng) => {
          const attrs = textAttributes(p);
          if (attrs.length === 0) return;
          const [key, value] = rng.pick(attrs);
          const nv = normalise(value);
          const intended = sameTitle(p).filter((id) => {
            const v = byId.get(id)!.attributes[key];
            return typeof v === "string" && normalise(v) === nv;
          });
          add(`${p.title} ${value}`, p, intended);
        });
        break;
      case "closest":
      case "closest_typo":
        each(distinctTitles, (p, rng) => {
          const made = closestQuery(p.title, rng.u32(), holders, keyWords, isTitle);
          if (made === null) return;
          if (name === "closest") return add(made.q, p, made.intended);
          const words = made.q.split(" ");
          const editable = words.flatMap((w, i) => (isEditableWord(w) ? [i] : []));
          if (editable.length === 0) return;
          const i = rng.pick(editable);
          const edited = TYPOS[rng.pick(Object.keys(TYPOS) as TypoKind[])](words[i]!, rng);
          if (edited !== null) add(replaceWord(made.q, i, edited), p, made.intended);
        });
        break;
      case "brand_category": {
        const pairs = firstPerTitle(
          products.filter((p) => p.brand !== null),
          (p) => `${p.brandId} ${p.categoryId}`,
        );
        each(pairs, (p) =>
          add(
            `${p.brand} ${p.categories.at(-1)}`,
            p,
            products.filter((o) => o.brandId === p.brandId && o.categoryId === p.categoryId).map((o) => o.id),
          ),
        );
        break;
      }
      case "variant":
        each(distinctTitles, (p, rng, i) => {
          const variant = VARIANTS[i % VARIANTS.length]!;
          const q =
            variant === "upper" ? p.title.toUpperCase() : variant === "diacritics" ? addDiacritics(p.title, rng) : toFullWidth(p.title);
          add(q, p, sameTitle(p));
        });
        break;
    }
    out.push(...queries);
  }
  return out;
}
