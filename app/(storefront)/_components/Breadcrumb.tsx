export function Breadcrumb({ trail }: { trail: Array<{ slug: string; name: string }> }) {
  if (trail.length === 0) return null;
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <ol>
        <li>
          <Link href="/">Home</Link>
        </li>
        {trail.map((c, i) => (
          <li key={c.slug}>
            {i === trail.length - 1 ? <span aria-current="page">{c.name}</span> : <a href={`/c/${c.slug}`}>{c.name}</a>}
          </li>
        ))}
      </ol>
    </nav>
  );
}import Link from "next/link";

