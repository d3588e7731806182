/**
 * An upload, checked, resized and stored: `{id}-{width}.webp` for each width. Nothing is stored
 * unless every variant was made; a failed write removes what was written.
 */
import { randomBytes } from "node:crypto";
import { PICTURE_WIDTHS, processUpload, type PictureWidth } from "./process-upload";
import type { PictureStore } from "./store";

export function pictureKey(id: string, width: PictureWidth): string {
  return `${id}-${width}.webp`;
}

/** The path the app serves a stored picture at (app/media/[file]/route.ts). */
export function picturePath(id: string, width: PictureWidth = 1280): string {
  return `/media/${pictureKey(id, width)}`;
}

export interface SavedPicture {
  id: string;
  /** The largest variant's size, as product_images keeps it. */
  width: number;
  height: number;
  /** The largest variant's path, what product_images keeps. */
  path: string;
}

export async function savePicture(store: PictureStore, bytes: Buffer, param = "picture"): Promise<SavedPicture> {
  const picture = await processUpload(bytes, param);
  const id = randomBytes(12).toString("hex");
  const written: string[] = [];
  try {
    for (const variant of picture.variants) {
      const key = pictureKey(id, variant.width);
      await store.put(key, variant.bytes);
      written.push(key);
    }
  } catch (err) {
    await Promise.allSettled(written.map((key) => store.delete(key)));
    throw err;
  }
  const largest = picture.variants[picture.variants.length - 1]!;
  return { id, ...largest.size, path: picturePath(id, largest.width) };
}

/** Removes every variant of a saved picture (a listing that failed after its upload was stored). */
export async function deletePicture(store: PictureStore, id: string): Promise<void> {
  await Promise.allSettled(PICTURE_WIDTHS.map((width) => store.delete(pictureKey(id, width))));
}
