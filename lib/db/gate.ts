/** First come, first served; one holder at a time. */
export class Gate {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves, once it is this caller's turn, to the function that ends the turn. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#tail;
    this.#tail = previous.then(() => turn);
    return previous.then(() => release);
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
