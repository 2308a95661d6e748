import { parseRunCompletedEvent, validateInteractionAnswer } from '@kestrel/core';
import { RequestError } from './error-response.js';
import { readJsonBody } from './read-json-body.js';
import type { RequestContext } from './request-context.js';
import type { MockRun } from './mock-run.js';
import { negotiate, serveConnection } from './serve-connection.js';

function waitingOn(run: MockRun, interactionId: string) {
  const terminal = run.terminal;
  if (terminal === undefined) return undefined;
  const event = parseRunCompletedEvent(terminal);
  return event.output.status === 'WAITING' && event.output.interaction.id === interactionId
    ? event.output.interaction
    : undefined;
}

/**
 * `POST /v1/sessions/{sessionId}/interactions/{interactionId}`: validates the answer against the interaction the
 * run is WAITING on, then plays the scenario's continuation as the run's next attempt.
 */
export async function answerInteraction(
  context: RequestContext,
  sessionId: string,
  interactionId: string,
): Promise<Response> {
  const mode = negotiate(context.request);
  const runs = context.registry.session(sessionId);
  const run = runs.findLast((candidate) => waitingOn(candidate, interactionId) !== undefined);
  if (run === undefined) {
    if (runs.some((candidate) => candidate.answered.has(interactionId))) {
      throw new RequestError(409, 'interaction_answered', `Interaction "${interactionId}" has already been answered.`);
    }
    throw new RequestError(
      404,
      'interaction_not_found',
      `No run of session "${sessionId}" is waiting on interaction "${interactionId}".`,
    );
  }
  const body = await readJsonBody(context.request);
  // Another answer may have landed while this body was being read.
  const interaction = waitingOn(run, interactionId);
  if (interaction === undefined)
    throw new RequestError(409, 'interaction_answered', `Interaction "${interactionId}" has already been answered.`);
  const check = validateInteractionAnswer(interaction, body);
  if (!check.valid) {
    const message = check.issues.map((issue) => issue.message).join('; ');
    throw new RequestError(
      422,
      'invalid_answer',
      `The answer does not fit interaction "${interactionId}": ${message}`,
      check.issues,
    );
  }
  const continuation = run.scenario.continuation;
  if (continuation === undefined) {
    throw new RequestError(
      409,
      'cannot_continue',
      `Scenario "${run.scenario.name}" has no continuation after this interaction.`,
    );
  }
  run.answered.add(interactionId);
  run.answers.push({ interactionId, attempt: run.latest.attempt, answer: check.answer });
  const segment = run.appendAttempt(continuation.steps);
  return serveConnection(context, run, segment.start, mode);
}
