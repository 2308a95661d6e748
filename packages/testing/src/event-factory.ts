/** A wire event as the server sends it: plain JSON, possibly malformed on purpose. */
export type WireEvent = { readonly type: string; readonly seq: number } & Readonly<Record<string, unknown>>;

/** Envelope of the events a `createEventFactory` writes: which run and root session, and the first `seq` (e.g. to continue after an answer). */
export interface EventFactoryOptions {
  readonly runId?: string;
  readonly sessionId?: string;
  /** The seq the first event gets. */
  readonly firstSeq?: number;
}

/**
 * Writes scenario events without repeating the envelope: each call takes the next `seq`.
 *
 * @example
 * const e = createEventFactory({ runId: 'run_1' });
 * const events = [e.started(1), e.received(), e.text('Hi'), e.completed({ status: 'COMPLETED', assistantText: 'Hi' })];
 */
export function createEventFactory(options: EventFactoryOptions = {}) {
  const runId = options.runId ?? 'run_1';
  const rootSession = options.sessionId ?? 'ses_root';
  let seq = (options.firstSeq ?? 1) - 1;
  let attempt = 1;

  const event = (type: string, fields: Record<string, unknown> = {}, sessionId = rootSession): WireEvent => ({
    type,
    runId,
    seq: ++seq,
    sessionId,
    ...fields,
  });

  return {
    runId,
    sessionId: rootSession,
    /** The seq of the last event made. */
    get lastSeq() {
      return seq;
    },
    event,
    started: (n = attempt) => {
      attempt = n;
      return event('run.started', { attempt: n });
    },
    received: (messageId = `msg_${seq + 1}`) => event('message.received', { messageId }),
    reasoning: (delta: string) => event('reasoning.delta', { delta }),
    text: (delta: string) => event('text.delta', { delta }),
    /** One `text.delta` per word of `text`, spaces kept, so streaming looks real. */
    words: (text: string) => (text.match(/\S+\s*/g) ?? []).map((delta) => event('text.delta', { delta })),
    progress: (label: string, fraction?: number) =>
      event('progress', fraction === undefined ? { label } : { label, fraction }),
    log: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => event('log', { level, message }),
    toolStarted: (callId: string, name: string, input?: unknown) => event('tool.started', { callId, name, input }),
    toolCompleted: (callId: string, output?: unknown, isError?: boolean) =>
      event('tool.completed', isError === undefined ? { callId, output } : { callId, output, isError }),
    turnEnd: (kind: string, sessionId = rootSession) => event('turn/end', { reason: { kind } }, sessionId),
    idle: () => event('agent.idle'),
    completed: (output: Record<string, unknown>) => event('run.completed', { attempt, output }),
  };
}

/** The event writers `createEventFactory` returns (`started`, `text`, `toolStarted`, `completed`, ...): one method per wire event type. */
export type EventFactory = ReturnType<typeof createEventFactory>;
