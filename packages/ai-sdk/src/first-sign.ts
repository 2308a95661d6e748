import { RunClientError, type RunCompletedEvent, type RunHandle } from '@kestrel/core';
import type { KestrelInteractionData } from './data-part-schemas.js';

/** Whether a settled attempt is the very wait the chat shows (the same WAITING `run.completed`). */
export function waitsOn(settled: RunCompletedEvent, waiting: KestrelInteractionData): boolean {
  return settled.output.status === 'WAITING' && settled.seq === waiting.seq;
}

/**
 * What a replay of the run's newest attempt turns out to be, decided at its first sign: `same` when it settles on
 * the chat's wait, `newer` as soon as it goes past that wait's seq (another tab answered: a newer attempt streams).
 * Never waits for a newer attempt to end. Rejects with the replay's `RunClientError` when it fails, and with an
 * `AbortError` (the replay let go of) when `signal` aborts, as `useChat`'s `stop()` expects.
 */
export function firstSign<P>(
  replay: RunHandle<P>,
  waiting: KestrelInteractionData,
  signal: AbortSignal | undefined,
): Promise<'same' | 'newer'> {
  return new Promise((resolve, reject) => {
    const stopped = () => new DOMException('Stopped before the answer was sent', 'AbortError');
    let unsubscribe = () => {};
    const onAbort = () => {
      unsubscribe();
      replay.detach();
      reject(stopped());
    };
    const check = () => {
      const state = replay.getState();
      let sign: 'same' | 'newer' | Error | null = null;
      if (state.lastSeq > waiting.seq) sign = 'newer';
      else if (state.phase === 'settled' && state.result !== null)
        sign = waitsOn(state.result, waiting) ? 'same' : 'newer';
      else if (state.phase === 'error' && state.error !== null)
        sign = new RunClientError(state.error, { runId: state.runId });
      else if (state.phase === 'detached') sign = stopped();
      if (sign === null) return;
      unsubscribe();
      if (sign instanceof Error) reject(sign);
      else resolve(sign);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const unsubscribeState = replay.subscribe(check);
    unsubscribe = () => {
      unsubscribeState();
      signal?.removeEventListener('abort', onAbort);
    };
    check();
  });
}
