/**
 * Calls an app's callback (a listener, `onSettled`, a debugging tool) so that what it throws surfaces uncaught, as
 * from an event handler, without breaking the store, stream or controller that called it. One definition for the
 * whole core: every caller reports the same way.
 */
export function callSafely<A extends unknown[]>(callback: ((...args: A) => unknown) | undefined, ...args: A): void {
  try {
    callback?.(...args);
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}

/** Calls every listener with `args`, in order, over a copy (a listener may unsubscribe itself), each one safely. */
export function callAll<A extends unknown[]>(listeners: Set<(...args: A) => void>, ...args: A): void {
  for (const listener of [...listeners]) callSafely(listener, ...args);
}

/** Adds `listener` once per call (the same function twice is two subscriptions); returns the unsubscribe function. */
export function addListener<A extends unknown[]>(
  listeners: Set<(...args: A) => void>,
  listener: (...args: A) => void,
): () => void {
  const entry = (...args: A) => listener(...args);
  listeners.add(entry);
  return () => {
    listeners.delete(entry);
  };
}
