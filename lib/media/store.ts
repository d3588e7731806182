/**
 * Where product pictures live: a small key -> bytes store. The disk store below is the one in
 * use; an object store (S3, R2, GCS) can implement the same three calls later. A key is
 * `[a-z0-9-]{1,100}` followed by `.webp` (checked here, so no caller can reach outside the
 * folder). No HTTP, no database.
 */
import { mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

export interface PictureStore {
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes, or null for an unknown key. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

const KEY = /^[a-z0-9][a-z0-9-]{0,99}\.webp$/;

export function isPictureKey(key: string): boolean {
  return KEY.test(key);
}

function checkedKey(key: string): string {
  if (!isPictureKey(key)) throw new Error(`not a picture key: ${JSON.stringify(key)}`);
  return key;
}

export const DEFAULT_MEDIA_DIR = ".data/media";

/** The pictures' folder: MEDIA_DIR, or `.data/media` in the project. */
export function mediaDir(): string {
  // Read at run time, never traced into the build.
  return path.resolve(/*turbopackIgnore: true*/ process.env.MEDIA_DIR || DEFAULT_MEDIA_DIR);
}

/** Files in one folder; a write goes to a temporary name first, so a reader never sees half a file. */
export class DiskPictureStore implements PictureStore {
  constructor(readonly dir: string) {}

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = path.join(this.dir, checkedKey(key));
    await mkdir(this.dir, { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    if (!isPictureKey(key)) return null;
    try {
      return await readFile(path.join(this.dir, key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(path.join(this.dir, checkedKey(key)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
}

let store: PictureStore | undefined;

/** The app's store: the disk store over mediaDir(). */
export function pictureStore(): PictureStore {
  return (store ??= new DiskPictureStore(mediaDir()));
}
