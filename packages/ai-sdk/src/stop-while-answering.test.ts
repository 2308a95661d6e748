import { createMockKestrel, type MockKestrel } from '@kestrel/server/mock';
import { getScenario } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTab, readReply, requestLines, status } from './chat-tabs.test-helper.js';
import { interactionAnswerMessage } from './interaction-answer.js';

/*
 * useChat's stop() while the answer to a WAITING run is still being posted: sendMessages rejects at once, and the
 * answer's attempt (Kestrel applies an answer already sent) is let go of, to be picked up by resumeStream().
 */

const scenario = getScenario('waiting-approval');
const approve = interactionAnswerMessage({ kind: 'approval', approved: true });

let kestrel: MockKestrel;
beforeAll(async () => {
  kestrel = await createMockKestrel();
});
afterAll(() => kestrel.close());

/** A promise that settles only when `open()` is called, and a bound on how long a test waits for one. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
const within = <T>(promise: Promise<T>, what: string) =>
  Promise.race([promise, new Promise<string>((resolve) => setTimeout(() => resolve(`${what}: still pending`), 2000))]);

describe('stop() while the answer is being sent', () => {
  it('rejects with an AbortError before the answer request returns; the answered run is then left for resumeStream()', async () => {
    const answerPosted = gate();
    const answerReleased = gate();
    const tab = chatTab(kestrel, {
      beforeAnswer: () => {
        answerPosted.open();
        return answerReleased.opened;
      },
    });
    const waiting = await tab.send('chat', [], `[scenario:${scenario.name}] ${scenario.input}`);
    const stop = new AbortController();
    const sent = tab.open('chat', waiting.messages, approve.text, {
      metadata: approve.metadata,
      abortSignal: stop.signal,
    });
    await answerPosted.opened;
    stop.abort();
    const outcome = await within(
      sent.then(
        () => 'a stream',
        (error: unknown) => (error instanceof Error ? error.name : String(error)),
      ),
      'sendMessages',
    );
    answerReleased.open();
    expect(outcome).toBe('AbortError');

    // The answer had gone out: Kestrel applied it. The transport follows nothing, and resumeStream() shows it.
    let resumed = null;
    for (let tries = 0; resumed === null && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      resumed = await tab.transport.reconnectToStream({ chatId: 'chat' });
    }
    expect(resumed).not.toBeNull();
    const reply = await readReply(resumed!);
    expect(status(reply)).toMatchObject({ phase: 'settled', status: scenario.continuation!.expected.status });
    expect(requestLines(tab.requests).filter((line) => line.includes('interactions'))).toHaveLength(1);
  });

  it('sends no answer when stop() came before it could go out', async () => {
    const tab = chatTab(kestrel);
    const waiting = await tab.send('chat', [], `[scenario:${scenario.name}] ${scenario.input}`);
    const stop = new AbortController();
    stop.abort();
    await expect(
      tab.open('chat', waiting.messages, approve.text, { metadata: approve.metadata, abortSignal: stop.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(requestLines(tab.requests).filter((line) => line.includes('interactions'))).toEqual([]);
  });
});
