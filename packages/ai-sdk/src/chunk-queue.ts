/**
 * A readable stream fed by pushes, whose failure is delivered only after every chunk pushed before it. A plain
 * `controller.error()` discards chunks still queued, which would lose the very parts that explain the failure.
 */
export interface ChunkQueue<T> {
  readonly stream: ReadableStream<T>;
  push(...chunks: T[]): void;
  close(): void;
  fail(error: unknown): void;
  /** True once the consumer cancelled the stream. */
  readonly cancelled: boolean;
}

export interface ChunkQueueOptions<T> {
  readonly onCancel?: (reason: unknown) => void;
  /**
   * A chunk that only restates another (the whole draft, each time it grew) names a key: pushed while one of the
   * same key still waits, it takes that one's place. A slow reader then holds one draft, not one per update.
   */
  readonly replaceKey?: (chunk: T) => string | undefined;
}

export function createChunkQueue<T>(options: ChunkQueueOptions<T> = {}): ChunkQueue<T> {
  const pending: T[] = [];
  let ending: { kind: 'close' } | { kind: 'fail'; error: unknown } | null = null;
  let waiting: (() => void) | null = null;
  let cancelled = false;
  const wake = () => {
    const resume = waiting;
    waiting = null;
    resume?.();
  };
  const stream = new ReadableStream<T>(
    {
      async pull(controller) {
        while (pending.length === 0 && ending === null) await new Promise<void>((resolve) => (waiting = resolve));
        const next = pending.shift();
        if (next !== undefined) controller.enqueue(next);
        else if (ending?.kind === 'close') controller.close();
        else if (ending?.kind === 'fail') controller.error(ending.error);
      },
      cancel(reason) {
        cancelled = true;
        ending ??= { kind: 'close' };
        wake();
        options.onCancel?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    get cancelled() {
      return cancelled;
    },
    push(...chunks) {
      if (ending !== null) return;
      for (const chunk of chunks) {
        const key = options.replaceKey?.(chunk);
        const index = key === undefined ? -1 : pending.findIndex((queued) => options.replaceKey?.(queued) === key);
        if (index === -1) pending.push(chunk);
        else pending[index] = chunk;
      }
      wake();
    },
    close() {
      ending ??= { kind: 'close' };
      wake();
    },
    fail(error) {
      ending ??= { kind: 'fail', error };
      wake();
    },
  };
}
