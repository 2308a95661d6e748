/**
 * Calls `onStall` once a response has sent nothing to its client for `timeoutMs` while data waits for it: the bytes
 * waiting (`writableLength`) did not go down, so no write completed. Writers keep each write small (a slice), so a
 * client reading slowly but steadily completes one well within the bound. Returns the way to stop watching. An
 * infinite timeout watches nothing.
 */
export function watchForStall(
  res: { readonly writableLength: number },
  timeoutMs: number,
  onStall: () => void,
): () => void {
  if (timeoutMs === Number.POSITIVE_INFINITY) return noop;
  let waiting = res.writableLength;
  let timer: ReturnType<typeof setTimeout>;
  const check = () => {
    const now = res.writableLength;
    if (now >= waiting) return onStall();
    waiting = now;
    arm();
  };
  const arm = () => {
    timer = setTimeout(check, timeoutMs);
    timer.unref();
  };
  arm();
  return () => clearTimeout(timer);
}

const noop = () => undefined;

/** The longest delay Node's timers take (2^31 - 1 ms, about 24.8 days): a longer one would fire after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;
