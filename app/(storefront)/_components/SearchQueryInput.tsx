"use client";

import { usePathname, useSearchParams } from "next/navigation";

/** Pages whose results come from the `q` in their URL: the box keeps showing it there. */
const RESULT_PAGES = /^\/(search|c\/[^/]+)\/?$/;

export function QueryInput({ id, placeholder, value }: { id: string; placeholder: string; value?: string }) {
  // key: a client navigation to other results replaces the box, so it shows their query.
  return <input key={value ?? ""} id={id} name="q" type="search" placeholder={placeholder} maxLength={200} defaultValue={value} />;
}

/** The search box, holding the current results page's query. */
export function SearchQueryInput({ id, placeholder }: { id: string; placeholder: string }) {
  const pathname = usePathname();
  const q = useSearchParams().get("q");
  return <QueryInput id={id} placeholder={placeholder} value={q && RESULT_PAGES.test(pathname) ? q : undefined} />;
}
