import { createScenarioSource, getScenario } from '@kestrel/testing';
import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { expect, it, vi } from 'vitest';
import { InteractionPrompt } from './interaction-prompt.js';

it('hydrates a WAITING prompt with an expiry without a mismatch, then shows the countdown once mounted', async () => {
  const deadline = Date.parse('2099-01-01T00:00:00Z');
  // The server renders at one moment and the browser hydrates later: the clock has moved on in between.
  let clock = deadline - 125_000;
  const now = () => clock;
  const run = { ...createScenarioSource(getScenario('waiting-form')), respond: vi.fn(() => Promise.resolve()) };
  const tree = <InteractionPrompt run={run} now={now} focusOnWait={false} />;

  const container = document.createElement('div');
  container.innerHTML = renderToString(tree);
  expect(container.querySelector('form')?.getAttribute('data-kind')).toBe('form');
  expect(container.textContent).not.toContain('Expires in');

  clock = deadline - 60_000;
  const recoverable: unknown[] = [];
  const root = await act(async () =>
    hydrateRoot(container, tree, { onRecoverableError: (error) => recoverable.push(error) }),
  );
  expect(recoverable).toEqual([]);
  const time = container.querySelector('[data-kestrel-expiry="pending"] time');
  expect(time?.textContent).toBe('Expires in 1 min 0 s');
  expect(time?.getAttribute('datetime')).toBe('2099-01-01T00:00:00Z');
  act(() => root.unmount());
});
