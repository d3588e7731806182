import type { ReactNode } from "react";
import { SiteChrome } from "./_components/SiteChrome";

export default function StorefrontLayout({ children }: { children: ReactNode }) {
  return <SiteChrome>{children}</SiteChrome>;
}
