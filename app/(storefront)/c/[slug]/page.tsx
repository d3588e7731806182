import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { findCategory } from "@/lib/catalog/categories";
import { canonicalUrl } from "../../_lib/request-origin";
import { withCatalogReader } from "@/lib/http/database";
import { forgetStorefrontPage } from "@/lib/storefront/page-exists";
import { toSearchParams, type RawQuery } from "@/lib/storefront/search-url";
import { Breadcrumb } from "../../_components/Breadcrumb";
import { SearchError, runSearch, searchPageAttributes } from "../../_components/search-page";
import { SearchView } from "../../_components/SearchView";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<RawQuery> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  const place = await withCatalogReader((client) => findCategory(client, slug));
  if (!place) return {};
  return { title: place.node.name, alternates: { canonical: await canonicalUrl(`/c/${slug}`) } };
}

/** /c/{slug}?... is /search?category={slug}&... with the category's breadcrumb. */
export default async function CategoryPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const place = await withCatalogReader((client) => findCategory(client, slug));
  if (!place) {
    forgetStorefrontPage({ kind: "category", slug }); // see lib/storefront/page-exists.ts
    notFound();
  }
  const query = toSearchParams(await searchParams);
  query.delete("category");
  const withCategory = new URLSearchParams(query);
  withCategory.set("category", slug);
  const outcome = await runSearch(withCategory);
  return (
    <main
      className="page"
      data-page="search"
      {...searchPageAttributes(outcome)}
    >
      <Breadcrumb trail={place.breadcrumb} />
      <h1>{place.node.name}</h1>
      {outcome.ok ? (
        <SearchView basePath={`/c/${slug}`} params={query} result={outcome.result} drilldown={outcome.drilldown} categoryLinks="path" />
      ) : (
        <SearchError error={outcome.error} />
      )}
    </main>
  );
}
