import { createScenarioRun, getScenario } from '@kestrel/testing';
import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { expect, it } from 'vitest';
import { Run } from './run-parts.js';
import { RunStatus } from './run-status.js';
import { RunView } from './run-view.js';

/** The live regions that would speak: role="status" not turned off, polite regions, and alerts. */
function speaking(container: HTMLElement) {
  const statuses = [...container.querySelectorAll('[role="status"]')].filter(
    (element) => element.getAttribute('aria-live') !== 'off',
  );
  const answers = [...container.querySelectorAll('[data-kestrel-part="announcement"]')].filter(
    (element) => element.textContent !== '',
  );
  return { statuses, answers, alerts: [...container.querySelectorAll('[role="alert"]')] };
}

it('two views of one run announce its outcome once: one status, one answer, the other view stays silent', () => {
  const scenario = getScenario('completed-text');
  const run = createScenarioRun(scenario, { upTo: 3 });
  const { container } = render(
    <>
      <RunView run={run} />
      <header>
        <RunStatus run={run} />
      </header>
      <RunView run={run} />
    </>,
  );
  const statuses = container.querySelectorAll('[data-kestrel-part="status"]');
  expect(statuses).toHaveLength(3);
  act(() => {
    while (run.source.step()) {
      // play to run.completed
    }
  });
  const heard = speaking(container);
  expect(heard.statuses).toEqual([statuses[0]]);
  // Every view still shows the sentence; only the first mounted says it.
  for (const status of statuses) expect(status.textContent).toBe(statuses[0]!.textContent);
  expect(heard.answers).toHaveLength(1);
  expect(heard.answers[0]!.textContent).toBe(scenario.expected.assistantText);
  expect(container.querySelectorAll('[data-kestrel-part="announcement"]')).toHaveLength(2);
});

it('hands the voice to the next view when the first unmounts', () => {
  const run = createScenarioRun(getScenario('completed-text'), { upTo: 3 });
  let hideFirst = () => {};
  function Page() {
    const [first, setFirst] = useState(true);
    hideFirst = () => setFirst(false);
    return (
      <>
        {first ? <RunStatus run={run} data-testid="first" /> : null}
        <RunStatus run={run} data-testid="second" />
      </>
    );
  }
  const { getByTestId } = render(<Page />);
  expect(getByTestId('first').getAttribute('aria-live')).toBe('polite');
  expect(getByTestId('second').getAttribute('aria-live')).toBe('off');
  act(() => hideFirst());
  expect(getByTestId('second').getAttribute('aria-live')).toBe('polite');
});

it('says what broke once across views: one alert, and every status of the run silent about it', () => {
  const run = createScenarioRun(getScenario('truncated'));
  const { container } = render(
    <>
      <RunView run={run} />
      <Run.Root run={run}>
        <Run.Status />
        <Run.Error />
      </Run.Root>
      <RunStatus run={run} />
    </>,
  );
  const errors = container.querySelectorAll('[data-kestrel-part="error"]');
  expect(errors).toHaveLength(2);
  const heard = speaking(container);
  expect(heard.alerts).toEqual([errors[0]]);
  expect(heard.statuses).toEqual([]);
  expect(errors[1]!.textContent).toBe(errors[0]!.textContent);
});

it('keeps two different runs apart: each speaks for itself', () => {
  const first = createScenarioRun(getScenario('completed-text'));
  const second = createScenarioRun(getScenario('cancelled'));
  const { container } = render(
    <>
      <RunStatus run={first} />
      <RunStatus run={second} />
    </>,
  );
  expect(speaking(container).statuses).toHaveLength(2);
});
