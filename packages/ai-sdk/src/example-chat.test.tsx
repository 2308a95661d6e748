import { createRunClient, type PayloadSchema } from '@kestrel/core';
import { createMockKestrel, type MockKestrel } from '@kestrel/server/mock';
import { getScenario, invoiceResponseFormat, invoiceSchema, sampleInvoice } from '@kestrel/testing';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTab } from './chat-tabs.test-helper.js';
import { ExampleChat } from './example-chat.js';
import { interactionAnswerMessage } from './interaction-answer.js';
import { KestrelChatTransport } from './kestrel-chat-transport.js';

let kestrel: MockKestrel;
beforeAll(async () => {
  kestrel = await createMockKestrel();
});
afterAll(() => kestrel.close());

function renderChat(options: { payload?: boolean; delayMs?: number; onSessionId?: (sessionId: string) => void } = {}) {
  const client = createRunClient({
    baseUrl: kestrel.url,
    reconnect: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
    headers: options.delayMs === undefined ? {} : { 'x-kestrel-delay': String(options.delayMs) },
  });
  const onSessionId = options.onSessionId;
  const transport = new KestrelChatTransport({
    client,
    ...(options.payload
      ? { responseFormat: invoiceResponseFormat, payloadSchema: invoiceSchema as PayloadSchema }
      : {}),
    ...(onSessionId === undefined
      ? {}
      : { onSessionId: ({ sessionId }: { sessionId: string }) => onSessionId(sessionId) }),
  });
  render(<ExampleChat transport={transport} />);
  const user = userEvent.setup({ delay: null });
  // The whole message at once: typing it key by key only slows the test down.
  return {
    ...user,
    type: async (element: Element, text: string) => void fireEvent.change(element, { target: { value: text } }),
  };
}

describe('the docs/ai-sdk.md example, against the loopback mock Kestrel', () => {
  it('asks, waits for an approval, and continues after the person approves', async () => {
    const scenario = getScenario('waiting-approval');
    const user = renderChat();
    await user.type(screen.getByLabelText('Message'), `[scenario:waiting-approval] ${scenario.input}`);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const approval = await screen.findByRole('group', { name: 'Send the Q3 report to the board (6 recipients)?' });
    expect(screen.getByText('Waiting for you: Send the Q3 report to the board (6 recipients)?')).toBeTruthy();
    await user.click(within(approval).getByRole('button', { name: 'Approve' }));
    // The buttons go with the question: focus is on the messages, where the answer continues, not on the page.
    expect(document.activeElement).toBe(screen.getByRole('list', { name: 'Messages' }));
    expect(await screen.findByText(scenario.continuation!.expected.assistantText!)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Send the Q3 report to the board (6 recipients)?' })).toBeNull();
    expect(screen.getByText('Approved')).toBeTruthy();
  });

  it('shows a structured payload as data and a FAILED run as its own error', async () => {
    const user = renderChat({ payload: true });
    await user.type(screen.getByLabelText('Message'), '[scenario:completed-payload] Extract the invoice');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const result = await screen.findByLabelText('Result');
    expect(JSON.parse(result.textContent ?? '')).toEqual(sampleInvoice);

    await user.type(screen.getByLabelText('Message'), '[scenario:failed-no-text] Delete every customer record');
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The run failed: This action is not permitted by policy.',
    );
  });

  it('a truncated stream shows an error with a way to reconnect, not an answer', async () => {
    const user = renderChat();
    await user.type(screen.getByLabelText('Message'), '[scenario:truncated] Plan the database migration');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('button', { name: 'Reconnect' })).toBeTruthy();
    const alerts = screen.getAllByRole('alert').map((alert) => alert.textContent);
    expect(alerts.some((text) => text?.startsWith('No outcome (truncated)'))).toBe(true);
    const draft = screen
      .getByText('The migration plan has three phases. First,', { exact: false })
      .closest('[data-state]');
    expect(draft?.getAttribute('data-state')).toBe('interrupted');
    expect(draft?.textContent).toContain('Stopped before an answer: this draft is incomplete.');
  });

  it('shows the draft marked as in progress while it streams, then only the final text', async () => {
    const scenario = getScenario('failed-retryable');
    const user = renderChat({ delayMs: 20 });
    await user.type(screen.getByLabelText('Message'), `[scenario:failed-retryable] ${scenario.input}`);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(screen.getByText('Writing…').closest('[data-state]')?.textContent).toContain('I started looking up'),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The run failed: The model provider is overloaded. Try again shortly.',
    );
    // The draft said something else; once the run failed only the output's own text is shown.
    expect(
      screen.getByText('I could not finish the conversion because the model provider is overloaded.'),
    ).toBeTruthy();
    expect(screen.queryByText('I started looking up', { exact: false })).toBeNull();
    expect(screen.queryByText('Writing…')).toBeNull();
  });

  it('after Stop, the draft says the chat stopped following, not that it is still writing', async () => {
    const scenario = getScenario('failed-retryable');
    const user = renderChat({ delayMs: 40 });
    await user.type(screen.getByLabelText('Message'), `[scenario:failed-retryable] ${scenario.input}`);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(screen.getByText('Writing…').closest('[data-state]')?.textContent).toContain('I started looking up'),
    );
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await screen.findByRole('button', { name: 'Send' });
    const draft = screen.getByText('I started looking up', { exact: false }).closest('[data-state]');
    expect(draft?.getAttribute('data-state')).toBe('streaming');
    expect(draft?.getAttribute('aria-busy')).toBe('false');
    expect(draft?.textContent).toContain('Stopped following: the run may go on, and this draft is not an answer.');
    expect(screen.queryByText('Writing…')).toBeNull();
  });

  it('an answer given after another tab answered says it was not sent, and offers to send it as a new message', async () => {
    const scenario = getScenario('waiting-approval');
    let sessionId = '';
    const user = renderChat({ onSessionId: (id) => (sessionId = id) });
    await user.type(screen.getByLabelText('Message'), `[scenario:waiting-approval] ${scenario.input}`);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const approval = await screen.findByRole('group', { name: 'Send the Q3 report to the board (6 recipients)?' });
    // Another tab loads the chat and approves first.
    const otherTab = chatTab(kestrel);
    const loaded = await otherTab.transport.loadChatHistory(sessionId);
    const approve = interactionAnswerMessage({ kind: 'approval', approved: true });
    await otherTab.send(sessionId, loaded.messages, approve.text, approve.metadata);

    await user.click(within(approval).getByRole('button', { name: 'Decline' }));
    const note = await screen.findByRole('status');
    expect(note.textContent).toContain('This question had already been answered, so your answer was not sent.');
    // What really happened: the other tab's approval, the run's answer to it.
    expect(await screen.findByText(scenario.continuation!.expected.assistantText!)).toBeTruthy();
    const resend = await within(note).findByRole('button', { name: 'Send it as a new message' });
    // jsdom cannot paint, so contrast is left to the browser; landmarks belong to the app's page.
    const audit = await axe.run(screen.getByRole('region', { name: 'Chat' }), {
      rules: { region: { enabled: false }, 'color-contrast': { enabled: false } },
      resultTypes: ['violations'],
    });
    expect(audit.violations.map((violation) => violation.id)).toEqual([]);
    await user.click(resend);
    // The declined text is now a message of its own (a new run), and the note's offer is gone.
    await waitFor(() => expect(screen.getAllByText('Declined')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Send it as a new message' })).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
