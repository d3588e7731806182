/**
 * Spec 4.3 GET /categories and 2.5 (category node): every active category as a nested tree.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  api,
  expectExactKeys,
  expectSuccessEnvelope,
  flattenCategories,
  type ApiResponse,
  type CategoryNode,
} from "../helpers/http";

function depth(nodes: CategoryNode[]): number {
  return nodes.length === 0 ? 0 : 1 + Math.max(...nodes.map((n) => depth(n.children)));
}

describe("GET /categories returns every active category as a nested tree", () => {
  let res: ApiResponse;
  let tree: CategoryNode[];
  beforeAll(async () => {
    res = await api("/categories");
    tree = res.json?.data;
  });

  it("envelope { data: [node], meta: { count, request_id } }", () => {
    expectSuccessEnvelope(res);
    expect(Array.isArray(tree)).toBe(true);
    expect(tree.length).toBeGreaterThan(0);
    expectExactKeys(res.json.meta, ["count", "request_id"], "categories meta");
  });

  it("every node has exactly {slug, name, path, children}", () => {
    const walk = (nodes: CategoryNode[]) => {
      for (const n of nodes) {
        expectExactKeys(n, ["slug", "name", "path", "children"], `category ${n.slug}`);
        expect(n.slug).toBeTypeOf("string");
        expect(n.name).toBeTypeOf("string");
        expect(n.path).toBeTypeOf("string");
        expect(Array.isArray(n.children)).toBe(true);
        walk(n.children);
      }
    };
    walk(tree);
  });

  it("path = the ancestors' slugs and the node's slug joined by '.'", () => {
    const walk = (nodes: CategoryNode[], prefix: string[]) => {
      for (const n of nodes) {
        expect(n.path).toBe([...prefix, n.slug].join("."));
        walk(n.children, [...prefix, n.slug]);
      }
    };
    walk(tree, []);
  });

  it("slugs are valid ltree labels and unique", () => {
    const all = flattenCategories(tree);
    for (const n of all) expect(n.slug).toMatch(/^[a-z0-9_]+$/);
    expect(new Set(all.map((n) => n.slug)).size).toBe(all.length);
  });

  it("meta.count is the number of nodes in the tree", () => {
    expect(Number.isInteger(res.json.meta.count)).toBe(true);
    expect(res.json.meta.count).toBe(flattenCategories(tree).length);
  });

  it("the tree is at least 3 levels deep", () => {
    expect(depth(tree)).toBeGreaterThanOrEqual(3);
  });

  it("the inactive category fixture_inactive is absent", () => {
    expect(flattenCategories(tree).map((n) => n.slug)).not.toContain("fixture_inactive");
    expect(JSON.stringify(tree)).not.toContain("fixture_inactive");
  });

  it("the answer is the same on every request", async () => {
    const again = await api("/categories");
    expect(again.json.data).toEqual(tree);
  });
});
