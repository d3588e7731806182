import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The route reads MEDIA_DIR when it first needs the store.
const dir = await mkdtemp(path.join(tmpdir(), "media-route-"));
process.env.MEDIA_DIR = dir;
const { GET } = await import("@/app/media/[file]/route");
const { savePicture } = await import("@/lib/media/save-picture");
const { pictureStore } = await import("@/lib/media/store");

const get = (file: string) =>
  GET(new NextRequest(`http://localhost/media/${encodeURIComponent(file)}`), { params: Promise.resolve({ file }) });

let id: string;
beforeAll(async () => {
  const png = await sharp({ create: { width: 700, height: 500, channels: 3, background: "#336699" } }).png().toBuffer();
  id = (await savePicture(pictureStore(), png)).id;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("GET /media/{file}", () => {
  it("serves a stored picture as WebP with a year-long immutable cache", async () => {
    const res = await get(`${id}-640.webp`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 640 });
  });

  it("answers 404 in the error envelope for an unknown key and for paths outside the folder", async () => {
    for (const file of [`${"0".repeat(24)}-640.webp`, "../../etc/passwd", "..%2F..%2Fetc%2Fpasswd", `${id}-640.png`, ".webp"]) {
      const res = await get(file);
      expect(res.status, file).toBe(404);
      expect((await res.json()).error.code).toBe("route_not_found");
    }
  });
});
