import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { KestrelProvider } from './kestrel-provider.js';
import { describeModes } from './test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel } from './test-support/loopback-kestrel.test-helper.js';
import { useRun } from './use-run.js';

function Chat() {
  const run = useRun();
  return (
    <section data-phase={run.state.phase}>
      <button type="button" onClick={() => run.start('Hello')}>
        Ask
      </button>
    </section>
  );
}

describeModes('hydration', ({ wrap }) => {
  it('hydrates the server markup without a mismatch, then runs', async () => {
    const kestrel = await startLoopbackKestrel();
    try {
      const client = kestrel.client({ scenario: 'completed-text' });
      const tree = wrap(
        <KestrelProvider client={client}>
          <Chat />
        </KestrelProvider>,
      );
      const container = document.createElement('div');
      container.innerHTML = renderToString(tree);
      expect(container.querySelector('section')?.dataset.phase).toBe('idle');
      const recoverable: unknown[] = [];
      const root = await act(async () =>
        hydrateRoot(container, tree, { onRecoverableError: (error) => recoverable.push(error) }),
      );
      expect(recoverable).toEqual([]);
      expect(kestrel.requests).toHaveLength(0);
      await act(async () => container.querySelector('button')!.click());
      await expect.poll(() => container.querySelector('section')?.dataset.phase, { timeout: 5_000 }).toBe('settled');
      act(() => root.unmount());
    } finally {
      await kestrel.close();
    }
  });
});
