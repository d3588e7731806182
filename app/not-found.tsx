import type { Metadata } from "next";
import { NotFoundMessage } from "./(storefront)/_components/NotFoundMessage";
import { SiteChrome } from "./(storefront)/_components/SiteChrome";

export const metadata: Metadata = { title: "Not found" };

// A URL that matches no route: only the root layout is around it, so draw the site chrome here.
export default function NotFound() {
  return (
    <SiteChrome>
      <NotFoundMessage />
    </SiteChrome>
  );
}
