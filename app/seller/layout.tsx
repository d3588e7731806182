import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SellerChrome } from "./_components/SellerChrome";

export const metadata: Metadata = { title: { default: "Seller dashboard", template: "%s · Seller dashboard" }, robots: { index: false } };

export default function SellerLayout({ children }: { children: ReactNode }) {
  return <SellerChrome>{children}</SellerChrome>;
}
