/**
 * An uploaded product picture, checked and turned into WebP at a few widths. The declared type
 * is never trusted: the size is checked before anything is decoded, sharp reads only the
 * header first (format and dimensions, with `limitInputPixels` against decompression bombs), and
 * only JPEG, PNG, WebP and AVIF are accepted (SVG, with its scripts, never is). The output is
 * auto-rotated, stripped of metadata (sharp keeps none unless asked) and never wider than the
 * original. No HTTP, no storage: see save-picture.ts.
 */
import sharp, { type Metadata } from "sharp";
import { AppError } from "../errors";

export const MAX_PICTURE_BYTES = 10 * 1024 * 1024;
/** 40 megapixels: a 8000x5000 photo passes, a 20000x20000 bomb does not. */
export const MAX_PICTURE_PIXELS = 40_000_000;
export const PICTURE_WIDTHS = [320, 640, 1280] as const;
export type PictureWidth = (typeof PICTURE_WIDTHS)[number];

const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "heif"]);

export interface ProcessedPicture {
  width: number;
  height: number;
  /** One WebP per width of PICTURE_WIDTHS; `size` is what it measures (never wider than the original). */
  variants: { width: PictureWidth; bytes: Buffer; size: { width: number; height: number } }[];
}

export async function processUpload(bytes: Buffer, param = "picture"): Promise<ProcessedPicture> {
  if (bytes.length > MAX_PICTURE_BYTES) {
    throw new AppError("picture_too_large", `The picture is larger than ${MAX_PICTURE_BYTES / 1024 / 1024} MiB.`, param);
  }
  if (bytes.length === 0) throw new AppError("parameter_invalid", "The picture is empty.", param);
  const refused = () =>
    new AppError("parameter_invalid", "The file is not a picture we accept: send a JPEG, PNG, WebP or AVIF image.", param);

  const options = { limitInputPixels: MAX_PICTURE_PIXELS, failOn: "error", autoOrient: true } as const;
  let meta: Metadata;
  try {
    // The header only (no pixels are decoded), read without the pixel limit so a bomb gets the
    // message below; the resizing pipeline keeps the limit.
    meta = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw refused();
  }
  // heif is AVIF or HEIC; only AVIF (compression av1) is accepted.
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format)) throw refused();
  if (meta.format === "heif" && meta.compression !== "av1") throw refused();
  if (!meta.width || !meta.height) throw refused();
  if (meta.width * meta.height > MAX_PICTURE_PIXELS) {
    throw new AppError(
      "parameter_invalid",
      `The picture is ${meta.width}x${meta.height} pixels; at most ${MAX_PICTURE_PIXELS / 1_000_000} megapixels are accepted.`,
      param,
    );
  }

  try {
    const variants = await Promise.all(
      PICTURE_WIDTHS.map(async (width) => {
        const { data, info } = await sharp(bytes, options)
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer({ resolveWithObject: true });
        return { width, bytes: data, size: { width: info.width, height: info.height } };
      }),
    );
    const oriented = meta.autoOrient ?? { width: meta.width, height: meta.height };
    return { width: oriented.width, height: oriented.height, variants };
  } catch {
    throw refused();
  }
}
