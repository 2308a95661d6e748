import { getScenario } from '@kestrel/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionView } from './components/session/session-view.js';
import { RunView } from './components/run-view.js';
import { describeModes } from './test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from './test-support/loopback-kestrel.test-helper.js';
import type { UseSessionResult } from './types.js';
import { useSession, type UseSessionOptions } from './use-session.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel({
    seed: [{ sessionId: 'seeded', runs: 3, scenarios: ['completed-text'] }],
  });
});
afterAll(() => kestrel.close());

const entries = () => [...document.querySelectorAll<HTMLElement>('[data-kestrel-part="entry"]')];
const field = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
const completedText = getScenario('completed-text').expected.assistantText ?? '';

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
