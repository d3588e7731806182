import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { processUpload } from "@/lib/media/process-upload";
import { savePicture } from "@/lib/media/save-picture";
import { DiskPictureStore } from "@/lib/media/store";

let dir: string;
let store: DiskPictureStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "media-"));
  store = new DiskPictureStore(dir);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } });

async function refusal(bytes: Buffer): Promise<AppError> {
  const err = await savePicture(store, bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect(await readdir(dir).catch(() => [])).toEqual([]);
  return err as AppError;
}

describe("processUpload and savePicture", () => {
  it("turns a PNG into three WebP widths, never wider than the original", async () => {
    const png = await solid(900, 600).png().toBuffer();
    const picture = await processUpload(png);
    expect(picture).toMatchObject({ width: 900, height: 600 });
    const widths = [];
    for (const variant of picture.variants) {
      const meta = await sharp(variant.bytes).metadata();
      expect(meta.format).toBe("webp");
      widths.push(meta.width);
    }
    expect(widths).toEqual([320, 640, 900]);
  });

  it("stores a JPEG's variants under one id, with no metadata kept", async () => {
    const jpeg = await solid(1600, 1200).withMetadata({ exif: { IFD0: { Copyright: "someone" } } }).jpeg().toBuffer();
    const saved = await savePicture(store, jpeg);
    expect(saved).toMatchObject({ path: `/media/${saved.id}-1280.webp`, width: 1280, height: 960 });
    expect((await readdir(dir)).sort()).toEqual([1280, 320, 640].map((w) => `${saved.id}-${w}.webp`));
    const meta = await sharp((await store.get(`${saved.id}-1280.webp`))!).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 1280, height: 960 });
    expect(meta.exif).toBeUndefined();
  });

  it("refuses a text file", async () => {
    const err = await refusal(Buffer.from("hello, this is not a picture\n".repeat(50)));
    expect(err).toMatchObject({ code: "parameter_invalid", param: "picture" });
    expect(err.message).toMatch(/JPEG, PNG, WebP or AVIF/);
  });

  it("refuses an SVG, with or without a script", async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><script>alert(1)</script><rect width="400" height="400" fill="red"/></svg>',
    );
    expect(await refusal(svg)).toMatchObject({ code: "parameter_invalid" });
  });

  it("refuses a GIF (not an accepted format)", async () => {
    const gif = await solid(50, 50).gif().toBuffer();
    expect(await refusal(gif)).toMatchObject({ code: "parameter_invalid" });
  });

  it("refuses 30 MB before decoding anything", async () => {
    const err = await refusal(Buffer.alloc(30 * 1024 * 1024, 1));
    expect(err).toMatchObject({ code: "picture_too_large", param: "picture" });
  });

  it("refuses a decompression bomb: a small PNG whose header declares 20000x20000", async () => {
    // A real PNG with its IHDR rewritten (CRC fixed): decoding it would need 1.2 GB.
    const bomb = Buffer.from(await solid(16, 16).png().toBuffer());
    bomb.writeUInt32BE(20000, 16);
    bomb.writeUInt32BE(20000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(20000);
    const err = await refusal(bomb);
    expect(err).toMatchObject({ code: "parameter_invalid", message: expect.stringMatching(/20000x20000 pixels/) });
  });

  it("refuses a truncated PNG", async () => {
    const png = await solid(400, 400).png().toBuffer();
    expect(await refusal(png.subarray(0, 60))).toMatchObject({ code: "parameter_invalid" });
  });
});

describe("DiskPictureStore", () => {
  it("refuses keys that could leave its folder and answers null for unknown ones", async () => {
    await expect(store.put("../x.webp", Buffer.from("x"))).rejects.toThrow();
    expect(await store.get("../../etc/passwd")).toBeNull();
    expect(await store.get("missing-320.webp")).toBeNull();
    await store.put("abc-320.webp", Buffer.from("x"));
    expect((await store.get("abc-320.webp"))?.toString()).toBe("x");
    await store.delete("abc-320.webp");
    expect(await readdir(dir)).toEqual([]);
  });
});
