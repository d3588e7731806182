import { AppError } from "@/lib/errors";
import { publicRoute } from "@/lib/http/route";
import { pictureStore } from "@/lib/media/store";

// /media/{id}-{width}.webp: an uploaded product picture (lib/media/), cached for a year. The
// store answers null for a name that is not a picture key, so no path leaves its folder.
export const dynamic = "force-dynamic";

export const GET = publicRoute({ name: "media.picture", limit: "images", cache: "media" }, async ({ params }) => {
  const bytes = await pictureStore().get(params.file ?? "");
  if (bytes === null) throw new AppError("route_not_found", "No such picture.");
  return { bytes, contentType: "image/webp" };
});
