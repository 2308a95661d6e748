import type { InteractionAnswer } from '@kestrel/core';
import { getScenario } from './scenarios.js';

/** One message of a conversation: what the person types, the scenario its run plays, and the answer it needs. */
export interface ConversationTurn {
  /** The scenario the run plays (`getScenario`). */
  readonly scenario: string;
  /** What the person types. */
  readonly input: string;
  /** What a mock Kestrel is sent (`[scenario:<name>] <input>`), so the run plays `scenario`. */
  readonly message: string;
  /** The answer to its WAITING question, when it asks one. */
  readonly answer?: InteractionAnswer;
  /** The text the run settles with (after the answer, when there is one). */
  readonly finalText: string;
}

/** A session of several runs, shared by core and React tests, stories, the mock and the demo. */
export interface Conversation {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly turns: readonly ConversationTurn[];
}

function turn(scenarioName: string, input: string = getScenario(scenarioName).input): ConversationTurn {
  const scenario = getScenario(scenarioName);
  const answer = scenario.continuation?.answer;
  const finalText = (scenario.continuation?.expected ?? scenario.expected).assistantText;
  if (typeof finalText !== 'string') throw new Error(`Scenario "${scenarioName}" settles without assistant text`);
  return {
    scenario: scenarioName,
    input,
    message: `[scenario:${scenarioName}] ${input}`,
    ...(answer === undefined ? {} : { answer }),
    finalText,
  };
}

/** Multi-run conversations: ask, WAITING, answer, then a follow-up that builds on the answer. */
export const conversations: readonly Conversation[] = [
  {
    name: 'flight-then-hotel',
    title: 'Book a flight, then a hotel for it',
    description:
      'The agent asks which flight to book, the person picks FR 8341, and the next question (a hotel for that night) is answered with that flight in mind.',
    turns: [turn('waiting-choice-single'), turn('completed-follow-up')],
  },
  {
    name: 'approve-then-ask',
    title: 'Approve an email, then ask a question',
    description: 'An approval settles the first run; the second run is a plain question in the same session.',
    turns: [turn('waiting-approval'), turn('completed-text')],
  },
];

/** Looks a conversation up by name; throws with the list of names when there is none. */
export function getConversation(name: string): Conversation {
  const found = conversations.find((conversation) => conversation.name === name);
  if (found === undefined)
    throw new Error(`Unknown conversation "${name}". Known: ${conversations.map((one) => one.name).join(', ')}`);
  return found;
}
