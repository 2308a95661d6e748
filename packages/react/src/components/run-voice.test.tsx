import { createScenarioRun, getScenario, scenarioActions, type ScenarioRun } from '@kestrel/testing';
import { act, render } from '@testing-library/react';
import { StrictMode, useEffect, useState, type ReactNode } from 'react';
import { expect, it } from 'vitest';
import { useRunSelector } from '../use-run-selector.js';
import { AssistantText } from './assistant-text.js';
import { RunErrorAlert } from './run-error-alert.js';
import { Run } from './run-parts.js';
import { RunStatus } from './run-status.js';
import { RunView } from './run-view.js';

/*
 * What a screen reader hears, modelled as the browser hands it over: Chromium turns DOM changes into accessibility
 * events in its next lifecycle update, after the task that made them, so a commit and its layout effects are read
 * as one change. After each step (one `act`, which runs them all): a live region whose text changed is heard when
 * its aria-live is not "off" (not what it held when it appeared); an element that carries role="alert" and did not
 * before is heard as an alert.
 */
function listen(root: HTMLElement) {
  const texts = new Map<Element, string>();
  const alerts = new Set<Element>();
  const heard: { readonly kind: 'status' | 'answer' | 'alert'; readonly text: string }[] = [];
  const look = () => {
    for (const region of root.querySelectorAll('[role="status"], [data-kestrel-part="announcement"]')) {
      const text = region.textContent ?? '';
      const before = texts.get(region);
      texts.set(region, text);
      // What a region holds when it appears is not news: screen readers say only what changes in it.
      if (before !== undefined && text !== before && text !== '' && region.getAttribute('aria-live') !== 'off')
        heard.push({ kind: region.getAttribute('role') === 'status' ? 'status' : 'answer', text });
    }
    const now = new Set(root.querySelectorAll('[role="alert"]'));
    for (const alert of now) if (!alerts.has(alert)) heard.push({ kind: 'alert', text: alert.textContent ?? '' });
    alerts.clear();
    for (const alert of now) alerts.add(alert);
  };
  return { look, heard };
}

/** The end of the task: what a commit queued as microtasks has run (a status checks for an alert then). */
const endOfTask = () => Promise.resolve();

async function mount(ui: ReactNode) {
  const root = document.createElement('div');
  document.body.append(root);
  const reader = listen(root);
  const rendered = render(ui, { container: root });
  await endOfTask();
  reader.look();
  return { ...rendered, root, reader };
}

/** Plays the run to its end one action at a time, the reader looking after each. */
async function play(run: ScenarioRun, reader: { look(): void }) {
  for (;;) {
    let more = false;
    act(() => {
      more = run.source.step();
    });
    await endOfTask();
    reader.look();
    if (!more) return;
  }
}

const said = (heard: { kind: string; text: string }[], kind: string) =>
  heard.filter((entry) => entry.kind === kind).map((entry) => entry.text);

it('two views of one run announce each moment once: one status sentence, one answer, the others silent', async () => {
  const scenario = getScenario('completed-text');
  const run = createScenarioRun(scenario, { upTo: 3 });
  const { root, reader } = await mount(
    <>
      <RunView run={run} />
      <header>
        <RunStatus run={run} />
      </header>
      <RunView run={run} />
    </>,
  );
  await play(run, reader);
  const statuses = root.querySelectorAll('[data-kestrel-part="status"]');
  expect(statuses).toHaveLength(3);
  // Every view shows the sentence; one says it.
  for (const status of statuses) expect(status.textContent).toBe('Run finished');
  expect(said(reader.heard, 'status')).toEqual(['Run finished']);
  expect(said(reader.heard, 'answer')).toEqual([scenario.expected.assistantText]);
});

it('still says the outcome when the view that spoke leaves in the commit that brings it', async () => {
  const scenario = getScenario('completed-text');
  const run = createScenarioRun(scenario, { upTo: 3 });
  function Page() {
    const settled = useRunSelector(run, (state) => state.phase === 'settled');
    return (
      <>
        {settled ? null : <RunView run={run} />}
        <RunStatus run={run} data-testid="header" />
        <AssistantText run={run} />
      </>
    );
  }
  const { reader, getByTestId } = await mount(<Page />);
  await play(run, reader);
  expect(getByTestId('header').getAttribute('data-announcement')).toBe('finished');
  expect(said(reader.heard, 'status')).toEqual(['Run finished']);
  expect(said(reader.heard, 'answer')).toEqual([scenario.expected.assistantText]);
});

it('says what broke once across views: one alert, even for views mounted together, and no status says it', async () => {
  const run = createScenarioRun(getScenario('truncated'));
  const { root, reader } = await mount(
    <>
      <RunView run={run} />
      <Run.Root run={run}>
        <Run.Status />
        <Run.Error />
      </Run.Root>
      <RunErrorAlert run={run} />
      <RunStatus run={run} />
    </>,
  );
  const errors = root.querySelectorAll('[data-kestrel-part="error"]');
  expect(errors).toHaveLength(3);
  for (const error of errors) expect(error.textContent).toBe(errors[0]!.textContent);
  expect(said(reader.heard, 'alert')).toEqual([errors[0]!.textContent]);
  expect(root.querySelectorAll('[role="status"]:not([aria-live="off"])')).toHaveLength(0);
});

it('says the next sentence when a retry follows what broke in the same task (the alert check is not left behind)', async () => {
  const run = createScenarioRun(getScenario('truncated'));
  let retried = false;
  function RetryAtOnce() {
    const phase = useRunSelector(run, (state) => state.phase);
    useEffect(() => {
      if (phase === 'error' && !retried) {
        retried = true;
        run.source.dispatch({ type: 'client/start-requested', mode: 'start' });
      }
    }, [phase]);
    return null;
  }
  const { root, reader } = await mount(
    <>
      <RunStatus run={run} />
      <RunErrorAlert run={run} />
      <RetryAtOnce />
    </>,
  );
  await play(run, reader);
  const status = root.querySelector('[data-kestrel-part="status"]')!;
  expect(retried).toBe(true);
  expect(status.getAttribute('data-announcement')).toBe('started');
  expect(status.getAttribute('aria-live')).toBe('polite');
});

it('announces an answer once: the next outcome, within the 7 s the last one is kept, does not bring it back', async () => {
  const scenario = getScenario('waiting-approval');
  const run = createScenarioRun(scenario, { upTo: 3 });
  const { root, reader } = await mount(<AssistantText run={run} />);
  // Every text the answer's region held, commit by commit, rebuilt from the DOM's own record of changes: a browser
  // hands each commit to the screen reader before the effects React runs after paint, which `act` runs at once.
  const held: string[] = [];
  let last = '';
  const observer = new MutationObserver(() => undefined);
  observer.observe(root, { subtree: true, childList: true, characterData: true, characterDataOldValue: true });
  const inRegion = (node: Node) =>
    (node instanceof Element ? node : node.parentElement)?.closest('[data-kestrel-part="announcement"]') != null;
  const note = () => {
    const records = observer.takeRecords();
    // A text node's value at each record: what a later change of it says it was, else what it is now.
    const valueAt = (node: Node, index: number) =>
      records.slice(index + 1).find((r) => r.type === 'characterData' && r.target === node)?.oldValue ??
      node.textContent ??
      '';
    records.forEach((record, index) => {
      if (record.type === 'childList' && record.addedNodes.length === 0 && inRegion(record.target)) last = '';
      const nodes = record.type === 'characterData' ? [record.target] : [...record.addedNodes];
      for (const node of nodes) {
        if (!inRegion(record.target) && !inRegion(node)) continue;
        const text = valueAt(node, index);
        // Emptied in between and filled again is said again.
        if (text !== '' && text !== last) held.push(text);
        last = text;
      }
    });
  };
  const step = async (apply: () => void) => {
    act(apply);
    note();
    await endOfTask();
    reader.look();
  };
  while (run.source.getState().phase !== 'settled') await step(() => run.source.step());
  await step(() => undefined);
  expect(held).toHaveLength(1);
  // The answer's attempt, streamed action by action (the fixture's `respond` would apply it all at once); its start
  // and connection land in one commit, as when a fast server answers within a frame, so the text part stays mounted
  // from the question to the next outcome.
  const [connected, ...rest] = scenarioActions(scenario.continuation!.steps).slice(1);
  await step(() => {
    run.source.dispatch({ type: 'client/start-requested', mode: 'respond' });
    run.source.dispatch(connected!);
  });
  for (const action of rest) await step(() => run.source.dispatch(action));
  observer.disconnect();
  expect(run.getState().status).toBe('COMPLETED');
  expect(held).toEqual([held[0], scenario.continuation!.expected.assistantText]);
});

// A hidden view leaving the moment to a shown one needs layout: the RunErrorAlert story FirstViewHidden, in Chromium.

it('in StrictMode too, and a part given another run speaks for that run', async () => {
  const a = createScenarioRun(getScenario('completed-text'), { upTo: 3 });
  const b = createScenarioRun(getScenario('cancelled'), { upTo: 3 });
  let show = (_: 'a' | 'b') => {};
  function Header() {
    const [which, setWhich] = useState<'a' | 'b'>('a');
    show = setWhich;
    return <RunStatus run={which === 'a' ? a : b} />;
  }
  const { reader } = await mount(
    <StrictMode>
      <Header />
      <RunStatus run={a} />
      <RunStatus run={b} />
    </StrictMode>,
  );
  await play(a, reader);
  expect(said(reader.heard, 'status')).toEqual(['Run finished']);
  act(() => show('b'));
  await endOfTask();
  reader.look();
  await play(b, reader);
  expect(said(reader.heard, 'status')).toEqual(['Run finished', 'Run cancelled']);
});

it('keeps two different runs apart: each speaks for itself', async () => {
  const first = createScenarioRun(getScenario('completed-text'), { upTo: 3 });
  const second = createScenarioRun(getScenario('cancelled'), { upTo: 3 });
  const { reader } = await mount(
    <>
      <RunStatus run={first} />
      <RunStatus run={second} />
    </>,
  );
  await play(first, reader);
  await play(second, reader);
  expect(said(reader.heard, 'status')).toEqual(['Run finished', 'Run cancelled']);
});
