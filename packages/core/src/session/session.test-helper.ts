import { afterEach, expect, vi } from 'vitest';
import { startLoopbackKestrel, type LoopbackKestrel } from '../client/loopback-kestrel.test-helper.js';
import type { SessionController, SessionEntry, SessionState } from './session-types.js';

/* Session controller tests run against the shared loopback Kestrel (the mock, sessions and listing included). */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function kestrel(options: Parameters<typeof startLoopbackKestrel>[0] = {}): Promise<LoopbackKestrel> {
  const started = await startLoopbackKestrel(options);
  cleanups.push(() => started.close());
  return started;
}

/** Disposes the controller after the test, so no run is left followed. */
export function track<P>(session: SessionController<P>): SessionController<P> {
  cleanups.push(() => session.dispose());
  return session;
}

/** Waits (bounded) until the session's state satisfies `check`, and returns that state. */
export async function until<P>(
  session: SessionController<P>,
  check: (state: SessionState<P>) => boolean,
  timeout = 4_000,
): Promise<SessionState<P>> {
  await vi.waitFor(() => expect(check(session.getState())).toBe(true), { timeout, interval: 5 });
  return session.getState();
}

/** Every status each entry went through, by key, in order (consecutive repeats folded). */
export function recordStatuses<P>(session: SessionController<P>): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const note = () => {
    for (const entry of session.getState().entries) {
      const list = seen.get(entry.key) ?? [];
      if (list.at(-1) !== entry.status) list.push(entry.status);
      seen.set(entry.key, list);
    }
  };
  note();
  cleanups.push(session.subscribe(note));
  return seen;
}

export const statuses = (state: SessionState<unknown>) => state.entries.map((entry) => entry.status);
export const texts = (state: SessionState<unknown>) =>
  state.entries.map((entry: SessionEntry<unknown>) => entry.run.getState().output?.assistantText ?? null);
