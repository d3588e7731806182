import { redirect } from "next/navigation";
import { storeOfPage } from "../_lib/access";

type Props = { params: Promise<{ store: string }> };

// A store's dashboard opens on its listings.
export default async function StoreHome({ params }: Props) {
  const { store: slug } = await params;
  const { store } = await storeOfPage(slug, `/seller/${slug}`);
  redirect(`/seller/${store.slug}/listings`);
}
