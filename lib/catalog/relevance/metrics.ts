/**
 * Metrics of the relevance benchmark: per query, whether an intended product is among the first
 * k results (hit@k) and the reciprocal rank of the first one within the first 10; per class,
 * their means and the share of queries with no result at all.
 */

/** What an engine answered to one query. */
export interface Answer {
  /** Ids of the first results, best first (at least the first 10 when there are that many). */
  ids: string[];
  /** The engine found nothing (ours: meta.total === 0). */
  zero: boolean;
}

export interface QueryScore {
  zero: boolean;
  hit1: boolean;
  hit3: boolean;
  hit10: boolean;
  /** 1 / rank of the first intended product within the first 10, else 0. */
  rr: number;
}

export interface ClassMetrics {
  queries: number;
  zeroRate: number;
  hit1: number;
  hit3: number;
  hit10: number;
  mrr: number;
}

export const MRR_DEPTH = 10;

export function scoreAnswer(intended: Iterable<string>, answer: Answer): QueryScore {
  const wanted = new Set(intended);
  const rank = answer.ids.slice(0, MRR_DEPTH).findIndex((id) => wanted.has(id)) + 1; // 0: none
  return {
    zero: answer.zero,
    hit1: rank === 1,
    hit3: rank >= 1 && rank <= 3,
    hit10: rank >= 1 && rank <= 10,
    rr: rank === 0 ? 0 : 1 / rank,
  };
}

export function aggregate(scores: QueryScore[]): ClassMetrics {
  const n = scores.length;
  const mean = (f: (s: QueryScore) => number) => (n === 0 ? 0 : scores.reduce((sum, s) => sum + f(s), 0) / n);
  return {
    queries: n,
    zeroRate: mean((s) => Number(s.zero)),
    hit1: mean((s) => Number(s.hit1)),
    hit3: mean((s) => Number(s.hit3)),
    hit10: mean((s) => Number(s.hit10)),
    mrr: mean((s) => s.rr),
  };
}
