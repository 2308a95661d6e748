import { createScenarioRun, getScenario, invoiceSchema, type Invoice } from '@kestrel/testing';
import { useState, type ReactNode } from 'react';
import { Run } from '../../run-parts.js';
import type { ToolRenderers } from '../../tool-renderer.js';
import type { FixtureArgs } from './fixture-run.js';
import { renderInvoice } from './invoice-table.js';

export interface RootFixtureProps extends FixtureArgs {
  readonly tools?: ToolRenderers;
  readonly children: ReactNode;
}

/** A `Run.Root` over an in-memory run of a scenario, so a part story renders parts without run props. */
export function RootFixture({ scenario: name, freeze, tools, children }: RootFixtureProps) {
  const [run] = useState(() => {
    const scenario = getScenario(name);
    return createScenarioRun<Invoice>(scenario, {
      ...freeze,
      payloadSchema: scenario.usesInvoiceSchema === true ? invoiceSchema : undefined,
    });
  });
  return (
    <Run.Root run={run} renderPayload={renderInvoice} tools={tools}>
      {children}
    </Run.Root>
  );
}
