import Link from "next/link";

export function NotFoundMessage() {
  return (
    <main className="page" data-page="not-found" style={{ textAlign: "center", padding: "4rem 1rem" }}>
      <h1>Page not found</h1>
      <p>This page does not exist, or the product is no longer listed.</p>
      <p>
        <Link className="button" href="/search">
          Search products
        </Link>{" "}
        <Link href="/">Go to the home page</Link>
      </p>
    </main>
  );
}
