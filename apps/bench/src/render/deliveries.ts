import type { Rate } from './trial-types.js';

/** Events per delivery when streaming as fast as possible: about one 64 KiB network read of Kestrel SSE. */
export const BURST_EVENTS = 512;

/** A macrotask without the 4 ms clamp nested timers get in browsers. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `deliver(from, to)` with consecutive ranges of `count` items, each in its own task, at `rate`: the one
 * delivery schedule both contenders get, so they see the same text arriving at the same moments.
 */
export async function deliverOnSchedule(
  count: number,
  rate: Rate,
  deliver: (from: number, to: number) => void,
): Promise<void> {
  let sent = 0;
  if (rate === 'burst') {
    while (sent < count) {
      await nextTask();
      const to = Math.min(count, sent + BURST_EVENTS);
      deliver(sent, to);
      sent = to;
    }
    return;
  }
  const start = performance.now();
  while (sent < count) {
    await sleep(4);
    const due = Math.min(count, Math.floor(((performance.now() - start) * rate) / 1000));
    if (due > sent) {
      deliver(sent, due);
      sent = due;
    }
  }
}
