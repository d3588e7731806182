import { getCategoryTree } from "@/lib/catalog/categories";
import { searchProducts } from "@/lib/catalog/search";
import { withCatalogReader } from "@/lib/http/database";
import { atRequestOrigin } from "./_lib/request-origin";
import { SearchQuery } from "@/lib/schemas/catalog";
import { FIRST_ROW_CARDS, ProductCard } from "./_components/ProductCard";
import { SearchForm } from "./_components/SearchForm";

export const dynamic = "force-dynamic";

export default async function Home() {
  const [categories, newest] = await Promise.all([
    withCatalogReader(getCategoryTree),
    atRequestOrigin(() => withCatalogReader((client) => searchProducts(client, SearchQuery.parse({ sort: "newest", page_size: "8" })))),
  ]);
  return (
    <main className="page" data-page="home">
      <h1>Find it, compare sellers, buy with confidence</h1>
      <div style={{ marginBottom: "1.5rem" }}>
        <SearchForm id="home-search" label="Catalog search" placeholder="What are you looking for?" />
      </div>
      <h2>Shop by category</h2>
      <ul className="categories-grid">
        {categories.data.map((c) => (
          <li key={c.slug}>
            <a href={`/c/${c.slug}`}>{c.name}</a>
          </li>
        ))}
      </ul>
      <h2>New arrivals</h2>
      <div className="results">
        {newest.data.map((card, i) => (
          <ProductCard key={card.id} card={card} firstRow={i < FIRST_ROW_CARDS} />
        ))}
      </div>
      <p>
        <a href="/search">Browse all products →</a>
      </p>
    </main>
  );
}
