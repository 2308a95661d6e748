import { createRunClient } from '@kestrel/core';
import { createScenarioFetch, getScenario, invoiceResponseFormat, invoiceSchema, type Invoice } from '@kestrel/testing';
import { useState } from 'react';
import { useRun } from '../../../use-run.js';
import { renderMarkdown } from '../../../markdown/markdown-text.js';
import { RunView } from '../../run-view.js';
import { renderInvoice } from './invoice-table.js';
import { storyNow } from './scenario-view.js';

export interface LiveScenarioProps {
  readonly scenario: string;
  /** Pause before each event, so the stream is watchable. */
  readonly eventDelayMs?: number;
  readonly markdown?: boolean;
}

/** A real run client over an in-memory Kestrel that plays the shared scenarios, with timings short enough to watch. */
export function createStoryClient(eventDelayMs: number) {
  return createRunClient({
    baseUrl: 'http://kestrel.mock',
    fetch: createScenarioFetch({ eventDelayMs, stallMs: 200 }),
    reconnect: { baseDelayMs: 50, maxDelayMs: 200, jitter: 0 },
    heartbeatTimeoutMs: 150,
  });
}

/**
 * The real thing minus the server: `useRun` and the real run client (SSE parsing, resume, respond) over
 * `createScenarioFetch`, an in-memory Kestrel that plays the shared scenario.
 */
export function LiveScenario({ scenario: name, eventDelayMs = 40, markdown = false }: LiveScenarioProps) {
  const scenario = getScenario(name);
  const [client] = useState(() => createStoryClient(eventDelayMs));
  const withPayload = scenario.usesInvoiceSchema === true;
  const run = useRun<Invoice>({
    client,
    payloadSchema: withPayload ? invoiceSchema : undefined,
    responseFormat: withPayload ? invoiceResponseFormat : undefined,
  });
  return (
    <div>
      <p>
        <button type="button" onClick={() => run.start(`[scenario:${name}] ${scenario.input}`)}>
          Play “{scenario.title}”
        </button>
      </p>
      <RunView
        run={run}
        renderPayload={renderInvoice}
        renderText={markdown ? renderMarkdown : undefined}
        now={storyNow}
      />
    </div>
  );
}
