import { Fragment } from "react";
import type { CategoryDrilldown } from "@/lib/storefront/category-drilldown";

interface Props {
  drilldown: CategoryDrilldown;
  /** Where narrowing to a category leads (the search page's parameter or a category page). */
  categoryHref: (slug: string) => string;
}

/**
 * "All 38 results are in Electronics › Audio", with links to narrow to that category or to one
 * of its children (lib/storefront/category-drilldown.ts). Plain links: works without JavaScript.
 */
export function CategoryDrilldownNav({ drilldown, categoryHref }: Props) {
  const { total, trail, below_scope: belowScope, children } = drilldown;
  const deepest = trail[trail.length - 1];
  if (!deepest) return null;
  return (
    <nav className="drilldown" aria-label="Narrow by category" data-category-drilldown={deepest.slug}>
      <p>
        {total === 1 ? "The one result is in " : `All ${total.toLocaleString("en-US")} results are in `}
        {trail.map((category, i) => (
          <Fragment key={category.slug}>
            {i > 0 ? " › " : null}
            {/* Categories at or above the search's scope are applied already. */}
            {i >= trail.length - belowScope ? (
              <a href={categoryHref(category.slug)} data-drilldown-trail={category.slug}>
                {category.name}
              </a>
            ) : (
              <span data-drilldown-trail={category.slug}>{category.name}</span>
            )}
          </Fragment>
        ))}
        .
      </p>
      {children.length ? (
        <>
          <p id="drilldown-children">Narrow to:</p>
          <ul aria-labelledby="drilldown-children">
            {children.map((child) => (
              <li key={child.value}>
                <a href={categoryHref(child.value)} data-drilldown-value={child.value} data-drilldown-count={child.count}>
                  {child.label} <span className="count">({child.count.toLocaleString("en-US")})</span>
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </nav>
  );
}
