import { getScenario } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { createSessionController } from './create-session-controller.js';
import { kestrel, statuses, track, until } from './session.test-helper.js';

const approval = getScenario('waiting-approval');

/**
 * A session the server no longer has, found when the person answers its WAITING question with a message queued
 * behind it: from then on every request about it is refused 404.
 */
async function answerAfterTheSessionWentAway(refusal: string) {
  const server = await kestrel();
  let gone = false;
  const fetchUntilGone: typeof fetch = async (input, init) => {
    if (!gone) return fetch(input, init);
    const url = String(input instanceof Request ? input.url : input);
    const code = url.includes('/interactions/') ? refusal : 'session_not_found';
    return Response.json({ error: { code, message: 'gone' } }, { status: 404 });
  };
  const tab = track(createSessionController({ client: server.client({ fetch: fetchUntilGone }) }));
  tab.send(`[scenario:waiting-approval] ${approval.input}`);
  await until(tab, (state) => state.entries[0]?.status === 'waiting');
  gone = true;
  expect(tab.send('a new question')).toEqual({ type: 'queued', key: expect.any(String) });
  const error: unknown = await tab
    .getState()
    .entries[0]!.run.respond(approval.continuation!.answer)
    .catch((e) => e);
  return { tab, error };
}

describe('a session the server no longer has', () => {
  it.each(['session_not_found', 'run_not_found'])(
    'an answer refused %s ends the wait: the message queued behind it fails visibly instead of waiting forever',
    async (refusal) => {
      const { tab, error } = await answerAfterTheSessionWentAway(refusal);
      expect(error).toMatchObject({ name: 'RunClientError', status: 404, code: refusal });
      const settled = await until(tab, (state) => state.activeKey === null && state.history === 'not-found');
      // The start it then tried was refused session_not_found: the session's runs left the thread with it, and the
      // message stays, to send again (to a new session).
      expect(statuses(settled)).toEqual(['failed-to-send']);
    },
  );
});
