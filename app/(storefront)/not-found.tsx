import type { Metadata } from "next";
import { NotFoundMessage } from "./_components/NotFoundMessage";

export const metadata: Metadata = { title: "Not found" };

// notFound() in a storefront page: the storefront layout already draws the header and footer.
export default function StorefrontNotFound() {
  return <NotFoundMessage />;
}
