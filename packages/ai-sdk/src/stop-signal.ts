/** The rejection `useChat`'s `stop()` expects from `sendMessages`: the request was aborted. */
export function stoppedError(message: string): DOMException {
  return new DOMException(message, 'AbortError');
}

/**
 * `work`'s outcome, or an `AbortError` at once when `signal` aborts first. An abort cannot take back what `work`
 * already sent: a value it settles with afterwards goes to `onLate` (to let go of), a late failure is dropped.
 */
export function unlessStopped<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  message: string,
  onLate: (value: T) => void,
): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    let stopped = false;
    const onAbort = () => {
      stopped = true;
      reject(stoppedError(message));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (stopped) onLate(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (!stopped) reject(error);
      },
    );
  });
}
