import type { InteractionAnswer } from '@kestrel/core';
import { createEventFactory, type EventFactory } from './event-factory.js';
import { sampleInvoice } from './invoice.js';
import { ev, evs, type Scenario, type ScenarioStep } from './scenario.js';

const ANSWER_TEXT = 'Your invoice INV-2041 from Northwind Traders totals EUR 1,260.50 across two lines.';

/** A short opening every scenario shares: the attempt starts, the message is received, the agent thinks. */
function opening(e: EventFactory, attempt = 1): ScenarioStep[] {
  return evs(
    e.started(attempt),
    e.received(),
    e.reasoning('Reading the request. '),
    e.reasoning('Planning the answer.'),
  );
}

/**
 * The close most runs share: `text` streams word by word, the root turn ends with `finish`, the agent idles, and
 * the attempt settles with `output` (by default COMPLETED with `text` as the assistant text).
 */
function closing(
  e: EventFactory,
  text: string,
  finish: string,
  output: Record<string, unknown> = { status: 'COMPLETED', assistantText: text },
): ScenarioStep[] {
  return [...evs(e.words(text), e.turnEnd(finish), e.idle()), ev(e.completed(output))];
}

/** A plain answer: text streams in, the root turn completes, run.completed settles with that text. */
function plainAnswer(
  spec: Pick<Scenario, 'name' | 'title' | 'description' | 'input'> & { readonly runId: string; readonly text: string },
): Scenario {
  const e = createEventFactory({ runId: spec.runId });
  const { text } = spec;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    group: 'completed',
    input: spec.input,
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [...opening(e), ...closing(e, text, 'completed')],
    expected: {
      phase: 'settled',
      status: 'COMPLETED',
      finishReason: 'completed',
      payload: 'absent',
      assistantText: text,
      draftText: text,
    },
  };
}

function completedText(): Scenario {
  return plainAnswer({
    name: 'completed-text',
    runId: 'run_completed_text',
    title: 'Completed: text only',
    description: 'A plain answer: text streams in, then run.completed settles it with the final assistant text.',
    input: 'What is the capital of Australia?',
    text: 'The capital of Australia is Canberra, chosen in 1908 as a compromise between Sydney and Melbourne.',
  });
}

function invoiceRun(runId: string, payload: unknown): { e: EventFactory; steps: ScenarioStep[] } {
  const e = createEventFactory({ runId });
  const steps = [
    ...opening(e),
    ...evs(
      e.toolStarted('call_ocr', 'ocr.extract', { file: 'invoice-2041.pdf' }),
      e.progress('Reading the invoice', 0.4),
      e.toolCompleted('call_ocr', { pages: 1, characters: 1834 }),
      e.progress('Extracting fields', 0.8),
      e.words(ANSWER_TEXT),
      e.turnEnd('completed'),
      e.idle(),
    ),
    ev(e.completed({ status: 'COMPLETED', assistantText: ANSWER_TEXT, finalizedPayload: payload })),
  ];
  return { e, steps };
}

function completedPayload(): Scenario {
  const { e, steps } = invoiceRun('run_completed_payload', sampleInvoice);
  return {
    name: 'completed-payload',
    title: 'Completed: text and structured payload',
    description: 'Structured output was requested: the run returns an explanation and a separate finalized payload.',
    group: 'completed',
    input: 'Extract the invoice in invoice-2041.pdf',
    runId: e.runId,
    sessionId: e.sessionId,
    steps,
    usesInvoiceSchema: true,
    expected: {
      phase: 'settled',
      status: 'COMPLETED',
      finishReason: 'completed',
      payload: 'valid',
      assistantText: ANSWER_TEXT,
    },
  };
}

function completedInvalidPayload(): Scenario {
  const { e, steps } = invoiceRun('run_completed_invalid_payload', {
    invoiceNumber: 'INV-2041',
    vendor: 'Northwind Traders',
    currency: 'EURO',
    total: '1260.50',
    lines: [],
  });
  return {
    name: 'completed-invalid-payload',
    title: 'Completed: payload fails the app schema',
    description: "The payload arrives but does not match the app's schema: it is shown as invalid, never dropped.",
    group: 'completed',
    input: 'Extract the invoice in invoice-2041.pdf',
    runId: e.runId,
    sessionId: e.sessionId,
    steps,
    usesInvoiceSchema: true,
    expected: { phase: 'settled', status: 'COMPLETED', payload: 'invalid', assistantText: ANSWER_TEXT },
  };
}

/** The retryable error both failed-retryable scenarios end with. */
const PROVIDER_OVERLOADED = {
  code: 'provider_overloaded',
  message: 'The model provider is overloaded. Try again shortly.',
  retryable: true,
} as const;

function failedRetryable(): Scenario {
  const e = createEventFactory({ runId: 'run_failed_retryable' });
  const text = 'I started looking up the exchange rates, but ';
  return {
    name: 'failed-retryable',
    title: 'Failed: retryable, with text',
    description: 'The model provider was overloaded; the run failed with a retryable error after some text.',
    group: 'failed',
    input: 'Convert 200 USD to EUR',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...opening(e),
      ...evs(e.words(text), e.log('error', 'Upstream model returned 529'), e.turnEnd('error'), e.idle()),
      ev(
        e.completed({
          status: 'FAILED',
          error: PROVIDER_OVERLOADED,
          assistantText: 'I could not finish the conversion because the model provider is overloaded.',
        }),
      ),
    ],
    expected: { phase: 'settled', status: 'FAILED', finishReason: 'error' },
  };
}

/** Fails like `failed-retryable`; started again with the same input (a retry), it completes. */
function failedRetryableThenCompleted(): Scenario {
  const runId = 'run_failed_then_completed';
  const e = createEventFactory({ runId });
  const again = createEventFactory({ runId });
  const answer = '200 USD is 184.60 EUR at the rate of 0.923 EUR per dollar.';
  return {
    name: 'failed-retryable-then-completed',
    title: 'Failed: retryable, then completed on retry',
    description:
      'The model provider was overloaded and the run failed, retryable; started again with the same input, it completes.',
    group: 'failed',
    input: 'Convert 200 USD to EUR at the current rate',
    runId,
    sessionId: e.sessionId,
    steps: [
      ...opening(e),
      ...evs(e.log('error', 'Upstream model returned 529'), e.turnEnd('error'), e.idle()),
      ev(e.completed({ status: 'FAILED', error: PROVIDER_OVERLOADED })),
    ],
    expected: { phase: 'settled', status: 'FAILED', finishReason: 'error' },
    retry: {
      steps: [...opening(again), ...closing(again, answer, 'completed')],
      expected: { phase: 'settled', status: 'COMPLETED', finishReason: 'completed', assistantText: answer },
    },
  };
}

function failedNoText(): Scenario {
  const e = createEventFactory({ runId: 'run_failed_fatal' });
  return {
    name: 'failed-no-text',
    title: 'Failed: not retryable, no text',
    description: 'A policy check refused the request: a FAILED output with its own evidence and no assistant text.',
    group: 'failed',
    input: 'Delete every customer record',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...evs(e.started(), e.received(), e.turnEnd('error'), e.idle()),
      ev(
        e.completed({
          status: 'FAILED',
          error: { code: 'policy_denied', message: 'This action is not permitted by policy.', retryable: false },
          assistantText: null,
        }),
      ),
    ],
    expected: { phase: 'settled', status: 'FAILED', finishReason: 'error', assistantText: null },
  };
}

function cancelled(): Scenario {
  const e = createEventFactory({ runId: 'run_cancelled' });
  return {
    name: 'cancelled',
    title: 'Cancelled by the user',
    description: 'The person cancelled the run while it was working: CANCELLED, distinct from FAILED.',
    group: 'cancelled',
    input: 'Write a 5,000 word report on tides',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...opening(e),
      ...closing(e, 'Tides are caused mainly by the Moon ', 'cancelled', {
        status: 'CANCELLED',
        cancellation: { reason: 'Stopped by the user', by: 'user' },
        assistantText: 'Tides are caused mainly by the Moon',
      }),
    ],
    expected: { phase: 'settled', status: 'CANCELLED', finishReason: 'cancelled' },
  };
}

interface WaitingSpec {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: string;
  readonly interaction: Record<string, unknown>;
  readonly answer?: InteractionAnswer;
  readonly invalidAnswer?: unknown;
  readonly lead: string;
  readonly after: string;
}

function waiting(spec: WaitingSpec): Scenario {
  const e = createEventFactory({ runId: `run_${spec.name.replaceAll('-', '_')}` });
  const steps: ScenarioStep[] = [
    ...opening(e),
    ...closing(e, spec.lead, 'tool-calls', {
      status: 'WAITING',
      interaction: spec.interaction,
      assistantText: spec.lead,
    }),
  ];
  const base: Scenario = {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    group: 'waiting',
    input: spec.input,
    runId: e.runId,
    sessionId: e.sessionId,
    steps,
    expected: { phase: 'settled', status: 'WAITING', finishReason: 'tool-calls' },
    invalidAnswer: spec.invalidAnswer,
  };
  if (spec.answer === undefined) return base;
  const nextSteps: ScenarioStep[] = [...opening(e, 2), ...closing(e, spec.after, 'completed')];
  return {
    ...base,
    continuation: {
      answer: spec.answer,
      steps: nextSteps,
      expected: { phase: 'settled', status: 'COMPLETED', finishReason: 'completed', assistantText: spec.after },
    },
  };
}

const waitingScenarios: Scenario[] = [
  waiting({
    name: 'waiting-approval',
    title: 'Waiting: approval',
    description: 'The agent needs a yes or no before it sends an email on your behalf.',
    input: 'Email the Q3 report to the board',
    lead: 'The report is ready. I need your approval before sending it to 6 board members.',
    interaction: {
      id: 'int_approval',
      kind: 'approval',
      prompt: 'Send the Q3 report to the board (6 recipients)?',
      action: 'email.send',
      details: { recipients: 6, subject: 'Q3 report' },
    },
    answer: { kind: 'approval', approved: true, comment: 'Go ahead' },
    invalidAnswer: { kind: 'text', text: 'yes' },
    after: 'Sent the Q3 report to all 6 board members.',
  }),
  waiting({
    name: 'waiting-choice-single',
    title: 'Waiting: choose one',
    description: 'The agent found three flights and asks which one to book.',
    input: 'Book me a flight to Lisbon on Friday',
    lead: 'I found three direct flights on Friday.',
    interaction: {
      id: 'int_choice_single',
      kind: 'choice',
      prompt: 'Which flight should I book?',
      options: [
        { id: 'tp1351', label: 'TP 1351, 07:05', description: 'Arrives 09:50, EUR 142' },
        { id: 'fr8341', label: 'FR 8341, 12:40', description: 'Arrives 15:20, EUR 89' },
        { id: 'u27711', label: 'U2 7711, 18:15', description: 'Arrives 21:00, EUR 118' },
      ],
    },
    answer: { kind: 'choice', selected: ['fr8341'] },
    invalidAnswer: { kind: 'choice', selected: ['tp1351', 'fr8341'] },
    after: 'Booked FR 8341 at 12:40 on Friday. The confirmation is in your inbox.',
  }),
  waiting({
    name: 'waiting-choice-multiple',
    title: 'Waiting: choose several',
    description: 'The agent asks which sections to include in a summary; several may be picked.',
    input: 'Summarise the annual report',
    lead: 'The report has four main sections.',
    interaction: {
      id: 'int_choice_multiple',
      kind: 'choice',
      prompt: 'Which sections should the summary cover?',
      multiple: true,
      options: [
        { id: 'finance', label: 'Finance' },
        { id: 'operations', label: 'Operations' },
        { id: 'people', label: 'People' },
        { id: 'outlook', label: 'Outlook' },
      ],
    },
    answer: { kind: 'choice', selected: ['finance', 'outlook'] },
    invalidAnswer: { kind: 'choice', selected: [] },
    after: 'Here is a summary of Finance and Outlook: revenue grew 12% and guidance was raised.',
  }),
  waiting({
    name: 'waiting-text',
    title: 'Waiting: free text',
    description: 'The agent asks for the missing detail in words.',
    input: 'Draft a reply to the landlord',
    lead: 'I can draft the reply once I know what you want to ask for.',
    interaction: {
      id: 'int_text',
      kind: 'text',
      prompt: 'What should the reply ask the landlord for?',
      placeholder: 'e.g. fix the heating by Friday',
      multiline: true,
    },
    answer: { kind: 'text', text: 'Please fix the heating by Friday.' },
    invalidAnswer: { kind: 'text', text: '' },
    after: 'Drafted: "Dear Ms Lane, could you please arrange for the heating to be fixed by Friday?"',
  }),
  waiting({
    name: 'waiting-form',
    title: 'Waiting: form',
    description: 'The agent needs several typed values to file an expense.',
    input: 'File my taxi receipt as an expense',
    lead: 'I read the receipt but need a few details to file it.',
    interaction: {
      id: 'int_form',
      kind: 'form',
      prompt: 'Complete the expense details',
      expiresAt: '2099-01-01T00:00:00Z',
      fields: [
        { name: 'project', label: 'Project code', type: 'string', required: true },
        { name: 'amount', label: 'Amount (EUR)', type: 'number', required: true },
        { name: 'billable', label: 'Billable to client', type: 'boolean' },
        { name: 'category', label: 'Category', type: 'enum', options: ['travel', 'meals', 'other'], required: true },
      ],
    },
    answer: { kind: 'form', values: { project: 'ACME-7', amount: 23.4, billable: true, category: 'travel' } },
    invalidAnswer: { kind: 'form', values: { amount: 'twenty' } },
    after: 'Filed a EUR 23.40 travel expense on project ACME-7, billable to the client.',
  }),
  waiting({
    name: 'waiting-unknown-kind',
    title: 'Waiting: unsupported interaction kind',
    description: 'The server asks for a kind of answer this client does not know: shown read-only with its prompt.',
    input: 'Sign the contract',
    lead: 'The contract is ready for your signature.',
    interaction: {
      id: 'int_signature',
      kind: 'signature',
      prompt: 'Sign the contract with your registered signature',
      document: 'contract.pdf',
    },
    after: '',
  }),
];

function subagentTurnEnd(): Scenario {
  const e = createEventFactory({ runId: 'run_subagent' });
  const text = 'Both suppliers can deliver by the 14th; Contoso is 8% cheaper.';
  return {
    name: 'subagent-turn-end',
    title: 'Subagent turns do not set the finish reason',
    description: "A research subagent ends its turn with max-tokens; only the root session's last turn/end counts.",
    group: 'activity',
    input: 'Compare the two suppliers',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...opening(e),
      ...evs(
        e.toolStarted('call_sub', 'agent.research', { topic: 'suppliers' }),
        e.turnEnd('max-tokens', 'ses_sub_research'),
        e.toolCompleted('call_sub', { summary: 'Contoso 8% cheaper' }),
        e.words(text),
        e.turnEnd('completed'),
        e.turnEnd('max-tokens', 'ses_sub_late'),
        e.idle(),
        e.turnEnd('error'),
      ),
      ev(e.completed({ status: 'COMPLETED', assistantText: text })),
    ],
    expected: { phase: 'settled', status: 'COMPLETED', finishReason: 'completed', assistantText: text },
  };
}

function maxTokens(): Scenario {
  const e = createEventFactory({ runId: 'run_max_tokens' });
  const text = 'Here are the first twenty items of the list: apples, apricots, avocados, bananas';
  return {
    name: 'max-tokens',
    title: 'Completed at the token limit',
    description:
      "The run's last root turn ended at the length limit: COMPLETED, with finish reason max-tokens; the answer may be incomplete.",
    group: 'completed',
    input: 'List every fruit you know',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [...opening(e), ...closing(e, text, 'max-tokens')],
    expected: { phase: 'settled', status: 'COMPLETED', finishReason: 'max-tokens', assistantText: text },
  };
}

function completedUnknownFinish(): Scenario {
  const e = createEventFactory({ runId: 'run_unknown_finish' });
  const text =
    'I cannot help with opening a lock that is not yours. A locksmith can open your own door without damaging it.';
  return {
    name: 'completed-unknown-finish',
    title: 'Completed: a finish reason this client does not know',
    description:
      'The root turn ends with a kind newer than this client (refusal): COMPLETED, with a neutral note naming it.',
    group: 'completed',
    input: "How do I pick my neighbour's lock?",
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [...opening(e), ...closing(e, text, 'refusal')],
    expected: { phase: 'settled', status: 'COMPLETED', finishReason: 'refusal', assistantText: text },
  };
}

/**
 * The second run of a conversation (see `conversations`): a follow-up whose answer builds on what the person chose
 * in the run before (flight FR 8341 in `waiting-choice-single`), as an agent with the session's memory answers.
 */
function completedFollowUp(): Scenario {
  return plainAnswer({
    name: 'completed-follow-up',
    runId: 'run_completed_follow_up',
    title: 'Completed: a follow-up that builds on an earlier answer',
    description:
      'The next message of a conversation: the answer refers to the flight the person chose in the run before.',
    input: 'Find me a hotel for that night',
    text: 'Your flight FR 8341 lands in Lisbon at 15:20, so I looked near the airport: the Star Inn has a room for EUR 74 that night.',
  });
}

function toolError(): Scenario {
  const e = createEventFactory({ runId: 'run_tool_error' });
  const text = 'The weather service is unavailable, so I used the cached forecast: light rain in Oslo tomorrow.';
  return {
    name: 'tool-error',
    title: 'Tool activity with an error result',
    description: 'A tool call fails and the agent recovers: the error is tool evidence, not the run outcome.',
    group: 'activity',
    input: 'Weather in Oslo tomorrow?',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...opening(e),
      ...evs(
        e.toolStarted('call_weather', 'weather.forecast', { city: 'Oslo' }),
        e.log('warn', 'weather.forecast timed out after 5s'),
        e.toolCompleted('call_weather', { error: 'timeout' }, true),
        e.toolStarted('call_cache', 'cache.lookup', { key: 'forecast:oslo' }),
        e.toolCompleted('call_cache', { forecast: 'light rain' }),
        e.progress('Writing the answer', 0.9),
        e.words(text),
        e.turnEnd('completed'),
        e.idle(),
      ),
      ev(e.completed({ status: 'COMPLETED', assistantText: text })),
    ],
    expected: { phase: 'settled', status: 'COMPLETED', finishReason: 'completed', assistantText: text },
  };
}

function truncated(): Scenario {
  const e = createEventFactory({ runId: 'run_truncated' });
  const text = 'The migration plan has three phases. First, ';
  return {
    name: 'truncated',
    title: 'Truncated stream',
    description: 'The server closes the stream before run.completed: no outcome, whatever text had streamed.',
    group: 'transport',
    input: 'Plan the database migration',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [...opening(e), ...evs(e.words(text)), { kind: 'end' }],
    expected: { phase: 'error', errorKind: 'truncated', draftText: text },
  };
}

function droppedMidStream(): Scenario {
  const e = createEventFactory({ runId: 'run_dropped' });
  const first = 'Paris has about 2.1 million inhabitants ';
  const second = 'within the city limits, and over 12 million in the metropolitan area.';
  return {
    name: 'dropped-mid-stream',
    title: 'Dropped connection, resumed',
    description: 'The connection drops mid-answer; the client resumes with Last-Event-ID and the run completes.',
    group: 'transport',
    input: 'How many people live in Paris?',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...opening(e),
      ...evs(e.words(first)),
      { kind: 'drop' },
      ...closing(e, second, 'completed', { status: 'COMPLETED', assistantText: first + second }),
    ],
    expected: {
      phase: 'settled',
      status: 'COMPLETED',
      finishReason: 'completed',
      assistantText: first + second,
      draftText: first + second,
    },
  };
}

function duplicateAfterResume(): Scenario {
  const e = createEventFactory({ runId: 'run_duplicate' });
  const first = 'Step one: preheat the oven to 200 degrees. ';
  const openingSteps = [...opening(e), ...evs(e.words(first))];
  const replayFrom = e.lastSeq - 2;
  const second = 'Step two: roast the vegetables for 25 minutes.';
  return {
    name: 'duplicate-after-resume',
    title: 'Duplicates replayed after resume',
    description: 'After a drop the server replays a few events the client already has; they are dropped by seq.',
    group: 'transport',
    input: 'How do I roast vegetables?',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...openingSteps,
      { kind: 'drop', replayFrom },
      ...closing(e, second, 'completed', { status: 'COMPLETED', assistantText: first + second }),
    ],
    expected: { phase: 'settled', status: 'COMPLETED', assistantText: first + second, draftText: first + second },
  };
}

function stalledHeartbeat(): Scenario {
  const e = createEventFactory({ runId: 'run_stalled' });
  const first = 'Checking the three warehouses. ';
  const second = 'All three have the part in stock.';
  return {
    name: 'stalled-heartbeat',
    title: 'Silent connection, resumed',
    description:
      'The server stops sending anything, keep-alives included; after the heartbeat timeout the client resumes.',
    group: 'transport',
    input: 'Is part 7731 in stock?',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...opening(e),
      ...evs(e.words(first)),
      { kind: 'stall', ms: 60_000 },
      ...closing(e, second, 'completed', { status: 'COMPLETED', assistantText: first + second }),
    ],
    expected: { phase: 'settled', status: 'COMPLETED', assistantText: first + second },
  };
}

function malformedEvent(): Scenario {
  const e = createEventFactory({ runId: 'run_malformed' });
  return {
    name: 'malformed-event',
    title: 'Malformed event',
    description: 'A tool.started event arrives without its callId: a protocol error naming the seq and field.',
    group: 'protocol',
    input: 'Look up order 5521',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [...opening(e), ...evs(e.words('Looking up the order. '), e.event('tool.started', { name: 'orders.get' }))],
    expected: { phase: 'error', errorKind: 'protocol' },
  };
}

function completedWithoutText(): Scenario {
  const e = createEventFactory({ runId: 'run_completed_empty' });
  return {
    name: 'completed-without-text',
    title: 'COMPLETED without assistant text',
    description: 'A COMPLETED output with an empty assistantText is a protocol error, never an empty success.',
    group: 'protocol',
    input: 'Say something',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [...opening(e), ...closing(e, 'Partial text', 'completed', { status: 'COMPLETED', assistantText: '' })],
    expected: { phase: 'error', errorKind: 'protocol' },
  };
}

function turnEndWithoutKind(): Scenario {
  const e = createEventFactory({ runId: 'run_turn_end_no_kind' });
  return {
    name: 'turn-end-without-kind',
    title: 'turn/end without a reason kind',
    description: 'A turn/end whose reason has no kind is a protocol error, not "no turn ending".',
    group: 'protocol',
    input: 'Hello',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [...opening(e), ...evs(e.words('Hello there.'), e.event('turn/end', { reason: { detail: 'done' } }))],
    expected: { phase: 'error', errorKind: 'protocol' },
  };
}

function eventAfterCompleted(): Scenario {
  const e = createEventFactory({ runId: 'run_after_completed' });
  const text = 'Done.';
  return {
    name: 'event-after-completed',
    title: 'Event after run.completed',
    description: 'The server keeps sending after the terminal event: a protocol error; the real result stays readable.',
    group: 'protocol',
    input: 'Quick task',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...opening(e),
      ...evs(e.words(text), e.turnEnd('completed'), e.idle()),
      ...evs(e.completed({ status: 'COMPLETED', assistantText: text }), e.text(' More')),
    ],
    expected: { phase: 'error', errorKind: 'protocol' },
  };
}

function eventNameMismatch(): Scenario {
  const e = createEventFactory({ runId: 'run_name_mismatch' });
  const started = e.started();
  const received = e.received();
  const delta = e.text('Hi');
  return {
    name: 'event-name-mismatch',
    title: 'SSE event name disagrees with data.type',
    description: 'The SSE event: line says one type and the JSON another: the event is malformed.',
    group: 'protocol',
    input: 'Hi',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...evs(started, received),
      { kind: 'raw', text: `event: reasoning.delta\nid: ${delta.seq}\ndata: ${JSON.stringify(delta)}\n\n` },
    ],
    expected: { phase: 'error', errorKind: 'protocol' },
  };
}

function unknownEventTypes(): Scenario {
  const e = createEventFactory({ runId: 'run_unknown_events' });
  const text = 'Your meeting with Dana is moved to 3 pm.';
  return {
    name: 'unknown-event-types',
    title: 'Unknown event types',
    description: 'A newer server sends event types this client does not know: they are kept and change nothing.',
    group: 'activity',
    input: 'Move my meeting with Dana to 3 pm',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...opening(e),
      ...evs(
        e.event('citation.added', { url: 'https://calendar.example.com/events/88', title: 'Meeting with Dana' }),
        e.words(text),
        e.event('usage.reported', { inputTokens: 812, outputTokens: 64 }),
        e.turnEnd('completed'),
        e.idle(),
      ),
      ev(e.completed({ status: 'COMPLETED', assistantText: text })),
    ],
    expected: { phase: 'settled', status: 'COMPLETED', finishReason: 'completed', assistantText: text },
  };
}

/** Every shared scenario, in the order people browse them. */
export const scenarios: readonly Scenario[] = [
  completedText(),
  completedPayload(),
  completedInvalidPayload(),
  maxTokens(),
  completedUnknownFinish(),
  completedFollowUp(),
  failedRetryable(),
  failedRetryableThenCompleted(),
  failedNoText(),
  cancelled(),
  ...waitingScenarios,
  subagentTurnEnd(),
  toolError(),
  unknownEventTypes(),
  truncated(),
  droppedMidStream(),
  duplicateAfterResume(),
  stalledHeartbeat(),
  malformedEvent(),
  completedWithoutText(),
  turnEndWithoutKind(),
  eventAfterCompleted(),
  eventNameMismatch(),
];

/** Looks a scenario up by name; throws with the list of names when there is none. */
export function getScenario(name: string): Scenario {
  const found = scenarios.find((scenario) => scenario.name === name);
  if (found === undefined) {
    throw new Error(`Unknown scenario "${name}". Known: ${scenarios.map((scenario) => scenario.name).join(', ')}`);
  }
  return found;
}
