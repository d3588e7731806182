/**
 * For what a change notification reaches: the app's caches forget a changed product or search
 * when the database's notification arrives (lib/db/changes.ts), a moment after the commit, and on
 * a loaded machine after the next request. Reads until `done` holds for what `read` returned, or
 * `deadlineMs` passes, and returns the last value for the caller to assert on.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, deadlineMs = 20_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
