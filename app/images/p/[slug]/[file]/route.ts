import { productImageSvg } from "@/lib/catalog/product-image";
import { getProductImageSubject } from "@/lib/catalog/product-image-subject";
import { AppError } from "@/lib/errors";
import { withCatalogReader } from "@/lib/http/database";
import { publicRoute } from "@/lib/http/route";

// /images/p/{slug}/{n}.svg: a product's generated picture (the URLs product_images holds).
export const dynamic = "force-dynamic";

export const GET = publicRoute({ name: "catalog.product_image", limit: "images", cache: "image" }, async ({ params }) => {
  const match = /^([1-9][0-9]?)\.svg$/.exec(params.file ?? "");
  const n = match ? Number(match[1]) : 0;
  const subject = match ? await withCatalogReader((client) => getProductImageSubject(client, params.slug ?? "", n)) : null;
  if (subject === null) throw new AppError("route_not_found", "No such product image.");
  return { text: productImageSvg(subject, n), contentType: "image/svg+xml; charset=utf-8" };
});
