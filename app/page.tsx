export default function Home() {
  return (
    <main>
      <h1>Marketplace</h1>
      <p>
        The public catalog API lives at <a href="/api/public/v1/openapi.json">/api/public/v1</a>.
      </p>
    </main>
  );
}
