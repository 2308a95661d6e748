import { getScenario } from '@kestrel/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from './components/axe-check.test-helper.js';
import { SessionView } from './components/session/session-view.js';
import { RunView } from './components/run-view.js';
import { describeModes } from './test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from './test-support/loopback-kestrel.test-helper.js';
import type { UseSessionResult } from './types.js';
import { useSession, type UseSessionOptions } from './use-session.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel({
    seed: [
      { sessionId: 'seeded', runs: 3, scenarios: ['completed-text'] },
      // One per render mode: each test appends a run.
      ...['retry', 'dbl'].flatMap((name) =>
        ['plain', 'strict'].map((mode) => ({
          sessionId: `${name}-${mode}`,
          runs: 3,
          scenarios: ['completed-text', 'failed-retryable', 'completed-text'],
        })),
      ),
      { sessionId: 'ses_a', runs: 2, scenarios: ['completed-text'] },
      { sessionId: 'ses_b', runs: 3, scenarios: ['failed-retryable'] },
    ],
  });
});
afterAll(() => kestrel.close());

const entries = () => [...document.querySelectorAll<HTMLElement>('[data-kestrel-part="entry"]')];
const field = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
const completedText = getScenario('completed-text').expected.assistantText ?? '';
const failedInput = getScenario('failed-retryable').input;
/** The thread as a person reads it: each entry's message and what came of it. */
const thread = () =>
  entries().map((entry) => {
    const input = entry.querySelector('[data-kestrel-part="message"] [data-kestrel-text]')?.textContent ?? '';
    const outcome = entry.querySelector<HTMLElement>('[data-kestrel-part="outcome"]')?.dataset.status;
    const answered = entry.querySelector('[data-kestrel-part="assistant-text"]') === null ? null : 'COMPLETED';
    return `${input}: ${outcome ?? answered ?? entry.dataset.state}`;
  });

function Probe({ options, intoRef }: { options: UseSessionOptions; intoRef: { current: UseSessionResult | null } }) {
  const session = useSession(options);
  useEffect(() => {
    intoRef.current = session;
  });
  return (
    <ol data-testid="entries" data-history={session.state.history}>
      {session.state.entries.map((entry) => (
        <li key={entry.key} data-state={entry.status}>
          <RunView run={entry.run} />
        </li>
      ))}
    </ol>
  );
}

describeModes('useSession against a real (loopback) Kestrel', ({ options }) => {
  it('loads the first page of history once, and each entry works with RunView', async () => {
    const sessionId = 'seeded';
    const before = kestrel.sent('GET', /\/v1\/sessions\/seeded\/runs/).length;
    const into = { current: null as UseSessionResult | null };
    render(<Probe options={{ client: kestrel.client(), sessionId }} intoRef={into} />, options);
    await waitFor(() => expect(screen.getByTestId('entries').dataset.history).toBe('complete'));
    expect(kestrel.sent('GET', /\/v1\/sessions\/seeded\/runs/).length - before).toBe(1);
    const items = within(screen.getByTestId('entries')).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    for (const item of items) {
      expect(item.dataset.state).toBe('settled');
      expect(item.querySelector('[data-kestrel-part="assistant-text"]')?.textContent).toBe(completedText);
    }
  });

  it('sends one request per send, and tells the app the new session id once', async () => {
    const onSessionId = vi.fn();
    const into = { current: null as UseSessionResult | null };
    const before = kestrel.sent('POST', /\/v1\/sessions\/[^/]+\/runs$/).length;
    render(
      <Probe options={{ client: kestrel.client({ scenario: 'completed-text' }), onSessionId }} intoRef={into} />,
      options,
    );
    act(() => void into.current!.send('Hello'));
    await waitFor(() => expect(into.current!.state.entries[0]?.status).toBe('settled'));
    expect(kestrel.sent('POST', /\/v1\/sessions\/[^/]+\/runs$/).length - before).toBe(1);
    expect(onSessionId).toHaveBeenCalledTimes(1);
    expect(onSessionId).toHaveBeenCalledWith(into.current!.state.sessionId);
  });

  it('stops listening when unmounted: no stream stays open', async () => {
    const into = { current: null as UseSessionResult | null };
    const view = render(
      <Probe options={{ client: kestrel.client({ scenario: 'completed-text', delayMs: 50 }) }} intoRef={into} />,
      options,
    );
    act(() => void into.current!.send('Hello'));
    await waitFor(() => expect(into.current!.state.entries[0]?.status).toBe('live'));
    view.unmount();
    await waitFor(() => expect(kestrel.openStreams).toBe(0));
  });
});

describeModes('useSession catching up with another tab', ({ options }) => {
  /** A session with one settled run made by another tab, shown in this one (history loaded). */
  async function openElsewhereMade(extra: Partial<UseSessionOptions> = {}) {
    const client = kestrel.client({ scenario: 'completed-text' });
    const first = client.start({ input: 'first' });
    await first.result;
    const sessionId = first.getState().sessionId!;
    const into = { current: null as UseSessionResult | null };
    render(<Probe options={{ client: kestrel.client(), sessionId, ...extra }} intoRef={into} />, options);
    await waitFor(() => expect(into.current!.state.history).toBe('complete'));
    return {
      session: () => into.current!,
      inputs: () => into.current!.state.entries.map((entry) => entry.input),
      listings: () => kestrel.sent('GET', new RegExp(`/v1/sessions/${sessionId}/runs`)).length,
      startElsewhere: (input: string) => client.start({ input, sessionId }).result,
    };
  }
  const showPage = (visibilityState: 'visible' | 'hidden') => {
    Object.defineProperty(document, 'visibilityState', { value: visibilityState, configurable: true });
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
  };

  it('refresh() shows a message sent in another tab', async () => {
    const tab = await openElsewhereMade();
    await tab.startElsewhere('from the other tab');
    await act(async () => void (await tab.session().refresh()));
    expect(tab.inputs()).toEqual(['first', 'from the other tab']);
    await waitFor(() => expect(tab.session().state.entries[1]?.status).toBe('settled'));
  });

  it('catches up when the page comes back into view, and not while it is hidden', async () => {
    const tab = await openElsewhereMade();
    await tab.startElsewhere('sent while this tab was hidden');
    const before = tab.listings();
    showPage('hidden');
    expect(tab.listings()).toBe(before);
    showPage('visible');
    await waitFor(() => expect(tab.inputs()).toEqual(['first', 'sent while this tab was hidden']));
  });

  it("refreshOn: 'manual' reads nothing when the page comes back into view", async () => {
    const tab = await openElsewhereMade({ refreshOn: 'manual' });
    const before = tab.listings();
    showPage('visible');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(tab.listings()).toBe(before);
  });
});

describeModes('SessionView: a question answered in another tab', ({ options }) => {
  function Chat({ sessionId }: { sessionId: string }) {
    const session = useSession({ client: kestrel.client(), sessionId, refreshOn: 'manual' });
    return <SessionView session={session} />;
  }

  it('Approve after the other tab approved: the prompt goes, and the thread shows that answer once and what came of it', async () => {
    const approval = getScenario('waiting-approval');
    const elsewhere = kestrel.client({ scenario: 'waiting-approval' }).start({ input: approval.input });
    await elsewhere.result;
    render(<Chat sessionId={elsewhere.getState().sessionId!} />, options);
    const approve = await screen.findByRole('button', { name: 'Approve' });
    await (
      await elsewhere.respond(approval.continuation!.answer)
    ).result; // the other tab answers first

    const region = document.querySelector('[data-kestrel-part="session-status"]')!;
    const said: string[] = [];
    const listening = new MutationObserver(() => said.push(region.textContent ?? ''));
    listening.observe(region, { childList: true, characterData: true, subtree: true });
    await userEvent.setup().click(approve);
    await waitFor(() => expect(thread()).toEqual([`${approval.input}: COMPLETED`]));
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    // The other tab's answer, read from the listing.
    const taken = () => entries()[0]?.querySelectorAll('[data-kestrel-part="answer"]:not([data-state])');
    await waitFor(() => expect(taken()).toHaveLength(1));
    expect(entries()[0]?.querySelector('[data-kestrel-part="assistant-text"]')?.textContent).toBe(
      approval.continuation!.expected.assistantText,
    );
    // This tab's answer is not lost without a word: it stays, marked not sent, with why, announced once.
    const sentence = 'Not sent: this question was already answered in another tab or on another device.';
    const notTaken = entries()[0]?.querySelector('[data-kestrel-part="answer"][data-state="not-taken"]');
    expect(notTaken?.textContent).toBe(`Your answer (not sent)Approved${sentence}`);
    // Said beside the answer, not a second time where the question was (Run.Prompt's own note is off in a thread).
    expect(document.querySelector('[data-kestrel-part="interaction"][data-state="not-taken"]')).toBeNull();
    listening.disconnect();
    expect(said.filter((text) => text === sentence)).toHaveLength(1);
    // The run read again settles right after: its outcome is said with the sentence, not over it (a screen reader
    // may speak only a polite region's newest text).
    expect(said.at(-1)).toContain(sentence);
  });
});

describe('useSession on the server', () => {
  it('renders the state known at creation without a request', () => {
    const before = kestrel.requests.length;
    const into = { current: null as UseSessionResult | null };
    const html = renderToString(<Probe options={{ client: kestrel.client(), sessionId: 'seeded' }} intoRef={into} />);
    expect(html).toContain('data-testid="entries"');
    expect(kestrel.requests.length).toBe(before);
  });

  it('names the hook when it has no client', () => {
    const into = { current: null as UseSessionResult | null };
    expect(() => renderToString(<Probe options={{}} intoRef={into} />)).toThrow(/useSession\(\) needs a run client/);
  });
});

describeModes('SessionView over useSession and the loopback Kestrel', ({ options }) => {
  function Chat({ setup }: { setup: Parameters<LoopbackKestrel['client']>[0] }) {
    const session = useSession({ client: kestrel.client(setup) });
    return <SessionView session={session} />;
  }

  it('sends what the person types, shows the answer, and announces the outcome once', async () => {
    render(<Chat setup={{ scenario: 'completed-text' }} />, options);
    const user = userEvent.setup();
    await user.type(field(), 'What is the capital of Australia?{Enter}');
    await waitFor(() => expect(entries()[0]?.dataset.state).toBe('settled'), { timeout: 5_000 });
    expect(entries()[0]!.querySelector('[data-kestrel-part="assistant-text"]')?.textContent).toBe(completedText);
    expect(document.querySelector('[data-kestrel-part="session-status"]')?.textContent).toBe('Run finished');
    expect(document.activeElement).toBe(field());
  });

  it('queues a message typed while a run streams and sends it once the run settles', async () => {
    render(<Chat setup={{ scenario: 'completed-text', delayMs: 20 }} />, options);
    const user = userEvent.setup();
    await user.type(field(), 'First{Enter}');
    await waitFor(() => expect(entries()[0]?.dataset.state).toBe('live'));
    await user.type(field(), 'Second{Enter}');
    expect(entries()[1]?.dataset.state).toBe('queued');
    await waitFor(() => expect(entries().map((entry) => entry.dataset.state)).toEqual(['settled', 'settled']), {
      timeout: 5_000,
    });
  });
});

/** A SessionView on one seeded conversation. */
function SeededChat({ sessionId }: { sessionId: string }) {
  const session = useSession({ client: kestrel.client(), sessionId });
  return <SessionView session={session} />;
}

describeModes('SessionView: trying a FAILED message again', ({ options, strict }) => {
  it('appends the retry at the end, keeps the failure shown, and a remount shows the same thread', async () => {
    const sessionId = `retry-${strict ? 'strict' : 'plain'}`;
    const view = render(<SeededChat sessionId={sessionId} />, options);
    await waitFor(() => expect(entries()).toHaveLength(3));
    const before = [
      `${getScenario('completed-text').input} (#1): COMPLETED`,
      `${failedInput} (#2): FAILED`,
      `${getScenario('completed-text').input} (#3): COMPLETED`,
    ];
    expect(thread()).toEqual(before);
    await userEvent.setup().click(within(entries()[1]!).getByRole('button', { name: 'Try again' }));
    // The button is gone with the retry: focus goes to the thread, which follows the new message, not the old run.
    expect(within(entries()[1]!).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('log'));
    await waitFor(() => expect(thread()).toEqual([...before, `${failedInput} (#2): COMPLETED`]), { timeout: 5_000 });
    const live = thread();
    view.unmount();

    render(<SeededChat sessionId={sessionId} />, options); // as a page reload would
    await waitFor(() => expect(thread()).toEqual(live));
  });

  it('a double click on Try again sends the message once, and the failure stays shown without the button', async () => {
    const sessionId = `dbl-${strict ? 'strict' : 'plain'}`;
    const view = render(<SeededChat sessionId={sessionId} />, options);
    await waitFor(() => expect(entries()).toHaveLength(3));
    const tryAgain = () => within(entries()[1]!).queryByRole('button', { name: 'Try again' });
    await userEvent.setup().dblClick(tryAgain()!);
    const after = [
      `${getScenario('completed-text').input} (#1): COMPLETED`,
      `${failedInput} (#2): FAILED`,
      `${getScenario('completed-text').input} (#3): COMPLETED`,
      `${failedInput} (#2): COMPLETED`,
    ];
    await waitFor(() => expect(thread()).toEqual(after), { timeout: 5_000 });
    expect(tryAgain()).toBeNull();
    expect(kestrel.sent('POST', new RegExp(`/sessions/${sessionId}/runs$`))).toHaveLength(1);
    view.unmount();

    render(<SeededChat sessionId={sessionId} />, options); // a reload reads both runs: the FAILED one is not offered again
    await waitFor(() => expect(thread()).toEqual(after));
    expect(tryAgain()).toBeNull();
  });
});

describeModes('useSession following its sessionId', ({ options }) => {
  const inputsOf = (state: UseSessionResult['state']) => state.entries.map((entry) => entry.input);
  const seededA = [1, 2].map((index) => `${getScenario('completed-text').input} (#${index})`);
  const seededB = [1, 2, 3].map((index) => `${failedInput} (#${index})`);

  it("shows the other conversation's history when sessionId changes, and the first one again when it changes back", async () => {
    const into = { current: null as UseSessionResult | null };
    const client = kestrel.client();
    const view = render(<Probe options={{ client, sessionId: 'ses_a' }} intoRef={into} />, options);
    await waitFor(() => expect(into.current!.state.history).toBe('complete'));
    expect(inputsOf(into.current!.state)).toEqual(seededA);
    const pages = () => kestrel.sent('GET', /\/v1\/sessions\/ses_b\/runs/).length;
    const beforeB = pages();

    view.rerender(<Probe options={{ client, sessionId: 'ses_b' }} intoRef={into} />);
    expect(into.current!.state.sessionId).toBe('ses_b'); // never a frame of ses_a under the new id
    await waitFor(() => expect(into.current!.state.history).toBe('complete'));
    expect(into.current!.state.sessionId).toBe('ses_b');
    expect(inputsOf(into.current!.state)).toEqual(seededB);
    expect(pages() - beforeB).toBe(1);

    view.rerender(<Probe options={{ client, sessionId: 'ses_a' }} intoRef={into} />);
    await waitFor(() => expect(into.current!.state.history).toBe('complete'));
    expect(inputsOf(into.current!.state)).toEqual(seededA);
  });

  it("detaches the old conversation's live run when switching away (never cancels it); it is there on return", async () => {
    const into = { current: null as UseSessionResult | null };
    const client = kestrel.client({ scenario: 'completed-text', delayMs: 25 });
    const view = render(<Probe options={{ client }} intoRef={into} />, options);
    act(() => void into.current!.send('Tell me about Canberra'));
    await waitFor(() => expect(into.current!.state.sessionId).not.toBeNull());
    await waitFor(() => expect(into.current!.state.entries[0]?.status).toBe('live'));
    const first = into.current!.state.sessionId!;
    const left = into.current!.state.entries[0]!.run;
    const cancels = kestrel.sent('POST', /\/cancel$/).length;

    view.rerender(<Probe options={{ client, sessionId: 'ses_a' }} intoRef={into} />);
    await waitFor(() => expect(left.getState().phase).toBe('detached'));
    await waitFor(() => expect(into.current!.state.history).toBe('complete'));
    expect(inputsOf(into.current!.state)).toEqual(seededA);

    view.rerender(<Probe options={{ client, sessionId: first }} intoRef={into} />);
    await waitFor(() => expect(into.current!.state.entries[0]?.status).toBe('settled'), { timeout: 5_000 });
    expect(into.current!.state.entries[0]?.run.getState().status).toBe('COMPLETED');
    expect(kestrel.sent('POST', /\/cancel$/).length).toBe(cancels);
  });

  it('keeps its controller when a new session is handed its own learned id (onSessionId → URL → prop)', async () => {
    const into = { current: null as UseSessionResult | null };
    const client = kestrel.client({ scenario: 'completed-text', delayMs: 10 });
    function Routed() {
      const [sessionId, setSessionId] = useState<string | undefined>(undefined);
      return <Probe options={{ client, sessionId, onSessionId: setSessionId }} intoRef={into} />;
    }
    render(<Routed />, options);
    const requests = kestrel.requests.length;
    act(() => void into.current!.send('Hello'));
    await waitFor(() => expect(into.current!.state.entries[0]?.status).toBe('settled'), { timeout: 5_000 });
    const sessionId = into.current!.state.sessionId!;
    // One POST and its stream: no listing read again, no resume, for a conversation already on screen.
    expect(kestrel.requests.slice(requests).map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/sessions/new/runs',
    ]);
    expect(into.current!.state.entries).toHaveLength(1);
    expect(into.current!.state.sessionId).toBe(sessionId);
  });

  it('uses a new client from the next request on, and restarts nothing', async () => {
    const into = { current: null as UseSessionResult | null };
    const view = render(<Probe options={{ client: kestrel.client(), sessionId: 'seeded' }} intoRef={into} />, options);
    await waitFor(() => expect(into.current!.state.history).toBe('complete'));
    const requests = kestrel.requests.length;
    view.rerender(
      <Probe
        options={{ client: kestrel.client({ scenario: 'failed-retryable' }), sessionId: 'seeded' }}
        intoRef={into}
      />,
    );
    expect(kestrel.requests.length).toBe(requests);
    act(() => void into.current!.send('Convert 5 USD'));
    await waitFor(() => expect(into.current!.state.entries.at(-1)?.status).toBe('settled'), { timeout: 5_000 });
    expect(into.current!.state.entries.at(-1)?.run.getState().status).toBe('FAILED');
  });
});

describeModes('SessionView: a message that could not be sent', ({ options }) => {
  function Chat({ client }: { client: UseSessionOptions['client'] }) {
    return <SessionView session={useSession({ client })} />;
  }
  const note = () => entries().at(-1)!.querySelector('[data-kestrel-part="message"] [data-kestrel-note]');
  const announced = () => document.querySelector('[data-kestrel-part="session-status"]')!.textContent;

  it('says why in words a person can act on, not the developer message, and Send again hands focus to the thread', async () => {
    const posts = () =>
      kestrel.sent('POST', /\/v1\/sessions\/new\/runs$/).filter((r) => r.body.includes('no-such-scenario')).length;
    const before = posts();
    render(<Chat client={kestrel.client()} />, options);
    const user = userEvent.setup();
    await user.type(field(), '[[scenario:no-such-scenario] Hello{Enter}');
    await waitFor(() => expect(entries().at(-1)!.dataset.state).toBe('failed-to-send'));
    expect(note()!.textContent).toBe('Not sent: the server refused it (HTTP 400). Send again');
    expect(announced()).toBe('Not sent: the server refused it (HTTP 400).');
    expect(document.body.textContent).not.toContain('unknown_scenario');

    await user.click(within(entries().at(-1)!).getByRole('button', { name: 'Send again' }));
    expect(document.activeElement).toBe(screen.getByRole('log'));
    await waitFor(() => expect(entries().at(-1)!.dataset.state).toBe('failed-to-send'));
    expect(posts() - before).toBe(2);
  });

  it('Send again that the policy refuses while a run is live says why, instead of doing nothing', async () => {
    function Refusing() {
      return <SessionView session={useSession({ client: kestrel.client({ delayMs: 40 }), concurrency: 'reject' })} />;
    }
    render(<Refusing />, options);
    const user = userEvent.setup();
    await user.type(field(), '[[scenario:no-such-scenario] Hello{Enter}');
    await waitFor(() => expect(entries()[0]!.dataset.state).toBe('failed-to-send'));
    await user.type(field(), `[[scenario:completed-text] ${getScenario('completed-text').input}{Enter}`);
    await waitFor(() => expect(entries()[1]!.dataset.state).toBe('live'));
    await user.click(within(entries()[0]!).getByRole('button', { name: 'Send again' }));
    expect(announced()).toBe('A run is in progress. Wait for it to finish.');
    expect(entries()[0]!.dataset.state).toBe('failed-to-send');
  });

  it('says the server could not be reached when nothing answers', async () => {
    const { listenOnLoopback } = await import('@kestrel/server/node');
    const gone = await listenOnLoopback((_req, res) => res.end());
    await gone.close(); // the port now refuses connections
    const { createRunClient } = await import('@kestrel/core');
    render(<Chat client={createRunClient({ baseUrl: gone.url })} />, options);
    await userEvent.setup().type(field(), 'Hello{Enter}');
    await waitFor(() => expect(entries().at(-1)!.dataset.state).toBe('failed-to-send'), { timeout: 5_000 });
    expect(note()!.textContent).toBe('Not sent: could not reach the server. Send again');
    expect(announced()).toBe('Not sent: could not reach the server.');
  });
});

describeModes('SessionView: a conversation the server does not know', ({ options }) => {
  it('says it was not found, and the next message starts a new conversation whose id the app hears', async () => {
    const learned: string[] = [];
    function Chat() {
      const session = useSession({
        client: kestrel.client({ scenario: 'completed-text' }),
        sessionId: 'ses_expired_long_ago',
        onSessionId: (id) => learned.push(id),
      });
      return <SessionView session={session} />;
    }
    const { container } = render(<Chat />, options);
    const note = 'This conversation was not found: it may have expired. Your next message starts a new one.';
    expect(await screen.findByText(note)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load older messages' })).toBeNull();
    expect(container.querySelector('[data-kestrel-session]')?.getAttribute('data-history')).toBe('not-found');
    await expectNoAxeViolations(container);

    const user = userEvent.setup();
    await user.type(field(), getScenario('completed-text').input);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(thread()).toEqual([`${getScenario('completed-text').input}: COMPLETED`]));
    expect(learned).toHaveLength(1);
    expect(learned[0]).not.toBe('ses_expired_long_ago');
    // The new conversation has nothing older: the note is gone.
    expect(screen.queryByText(note)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
