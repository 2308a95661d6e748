import { createScenarioRun, getScenario, invoiceSchema, type Invoice, type ScenarioRunOptions } from '@kestrel/testing';
import { useState } from 'react';
import { RunView, type RunViewProps } from '../run-view.js';
import { renderInvoice } from './invoice-table.js';

/** The clock stories show the expiry countdown against, so pictures stay the same from run to run. */
export const storyNow = () => Date.parse('2098-12-31T23:55:00Z');

export interface ScenarioViewProps extends Pick<RunViewProps<Invoice>, 'focusOnWait' | 'activityOpen' | 'renderText' | 'labels'> {
  /** A shared scenario name (see `@kestrel/testing`). */
  readonly scenario: string;
  /** Freeze the run: see `createScenarioSource`; `resumed` plays it as a run resumed by id (no start input). */
  readonly freeze?: Pick<ScenarioRunOptions<Invoice>, 'upTo' | 'until' | 'then' | 'resumed'>;
  /** Give RunView the app's payload renderer (default true). */
  readonly withRenderer?: boolean;
  readonly rejectAnswer?: string;
  readonly respondDelayMs?: number;
  readonly onAction?: ScenarioRunOptions<Invoice>['onAction'];
}

/** RunView over a scenario played in memory (no network), frozen wherever the story wants it. */
export function ScenarioView({ scenario: name, freeze, withRenderer = true, rejectAnswer, respondDelayMs, onAction, ...view }: ScenarioViewProps) {
  const [run] = useState(() => {
    const scenario = getScenario(name);
    return createScenarioRun<Invoice>(scenario, {
      ...freeze,
      payloadSchema: scenario.usesInvoiceSchema === true ? invoiceSchema : undefined,
      rejectAnswer,
      respondDelayMs,
      onAction,
    });
  });
  return <RunView run={run} renderPayload={withRenderer ? renderInvoice : undefined} now={storyNow} {...view} />;
}
