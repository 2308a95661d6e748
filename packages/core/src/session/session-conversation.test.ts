import { getConversation } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { createSessionController } from './create-session-controller.js';
import { kestrel, texts, track, until } from './session.test-helper.js';

describe('a conversation of runs', () => {
  it('asks, waits, takes the answer, and answers the follow-up with it in mind; a reload shows the same thread', async () => {
    const conversation = getConversation('flight-then-hotel');
    const [ask, followUp] = conversation.turns;
    if (ask?.answer === undefined || followUp === undefined) throw new Error('the conversation asks, then follows up');
    const server = await kestrel();
    let named: string | null = null;
    const session = track(createSessionController({ client: server.client(), onSessionId: (id) => (named = id) }));
    session.send(ask.message);
    const waiting = await until(session, (state) => state.entries[0]?.status === 'waiting');
    await waiting.entries[0]?.run.respond(ask.answer);
    await until(session, (state) => state.entries[0]?.status === 'settled');
    session.send(followUp.message);
    const done = await until(session, (state) => state.entries[1]?.status === 'settled');
    expect(texts(done)).toEqual([ask.finalText, followUp.finalText]);
    expect(followUp.finalText).toContain('FR 8341'); // the follow-up builds on the answer
    expect(done.entries[0]?.answers.map((answer) => answer.answer)).toEqual([ask.answer]);

    const reloaded = track(createSessionController({ client: server.client(), sessionId: named ?? '' }));
    reloaded.start();
    const read = await until(reloaded, (state) => state.history === 'complete');
    expect(read.entries.map((entry) => [entry.input, entry.status, entry.answers.length])).toEqual([
      [ask.message, 'settled', 1],
      [followUp.message, 'settled', 0],
    ]);
    expect(texts(read)).toEqual([ask.finalText, followUp.finalText]);
  });
});
