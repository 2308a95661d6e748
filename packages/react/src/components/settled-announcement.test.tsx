import { createScenarioRun, createScenarioSource, getScenario } from '@kestrel/testing';
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { AssistantText } from './assistant-text.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { RunView } from './run-view.js';

/** Renders `element`, then plays `source` to its outcome while it is shown. */
function playWhileShown(element: ReactElement, source: { step(): boolean }): HTMLElement {
  const { container } = render(element);
  act(() => {
    while (source.step()) {
      // play to run.completed
    }
  });
  return container;
}

it('announces no text for a run cancelled while it streamed: what it said until the stop is not an answer', () => {
  const source = createScenarioSource(getScenario('cancelled'), { until: (state) => state.draftText.length > 5 });
  const container = playWhileShown(<AssistantText run={source} />, source);
  expect(source.getState().status).toBe('CANCELLED');
  expect(container.querySelector('[data-kestrel-part="assistant-text"]')?.textContent).toBe(
    'Tides are caused mainly by the Moon',
  );
  expect(container.querySelector('[aria-live="polite"]')?.textContent).toBe('');
});

it('announces no text for a FAILED run that streamed: the status says it failed and why, heard alone', async () => {
  const run = createScenarioRun(getScenario('failed-retryable'), { until: (state) => state.draftText.length > 5 });
  const { source } = run;
  const container = playWhileShown(<RunView run={run} />, source);
  expect(source.getState().status).toBe('FAILED');
  const text = container.querySelector('[data-kestrel-part="assistant-text"]');
  expect(text?.textContent).toBe(source.getState().output?.assistantText);
  expect(text?.textContent).not.toBe('');
  // Labelled as what a failed run said, not as the answer; the one polite update is the status, with the reason.
  expect(text?.getAttribute('aria-label')).toBe('Assistant response, from a run that failed');
  const live = [...container.querySelectorAll('[aria-live="polite"]')].filter((region) => region.textContent !== '');
  expect(live.map((region) => region.textContent)).toEqual([
    'Run failed: The model provider is overloaded. Try again shortly.',
  ]);
  await expectNoAxeViolations(container);
});

it('puts no style attribute into server HTML (a strict style CSP drops them) and hides its live region on the client', async () => {
  // A page whose Content-Security-Policy has no 'unsafe-inline' for styles drops style attributes from server
  // HTML, and hydration does not set them again: the region must not depend on one to stay hidden.
  const scenario = getScenario('completed-text');
  const source = createScenarioSource(scenario, { until: (state) => state.draftText.length > 10 });
  const tree = <AssistantText run={source} />;
  const container = document.createElement('div');
  container.innerHTML = renderToString(tree);
  document.body.append(container);
  const region = container.querySelector<HTMLElement>('[aria-live="polite"]')!;
  expect(region).not.toBeNull();
  expect(container.querySelector('[style]')).toBeNull();
  // Nor does any other part of the drop-in view, streaming with its activity and tools open.
  const view = createScenarioRun(getScenario('tool-error'), { until: (state) => state.draftText.length > 30 });
  const html = renderToString(<RunView run={view} activityOpen />);
  expect(html).toContain('data-phase="streaming"');
  expect(html).not.toMatch(/ style="/);

  const recoverable: unknown[] = [];
  const root = await act(async () =>
    hydrateRoot(container, tree, { onRecoverableError: (error) => recoverable.push(error) }),
  );
  expect(recoverable).toEqual([]);
  expect(container.querySelector('[aria-live="polite"]')).toBe(region);
  expect([region.style.position, region.style.clipPath, region.style.overflow]).toEqual([
    'absolute',
    'inset(50%)',
    'hidden',
  ]);

  act(() => {
    while (source.step()) {
      // play to run.completed
    }
  });
  expect(region.textContent).toBe(scenario.expected.assistantText);
  expect(region.style.position).toBe('absolute');
  act(() => root.unmount());
  container.remove();
});
