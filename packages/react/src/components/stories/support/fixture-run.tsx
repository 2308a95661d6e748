import {
  createScenarioRun,
  getScenario,
  invoiceSchema,
  type Invoice,
  type ScenarioRun,
  type ScenarioRunOptions,
} from '@kestrel/testing';
import { useState, type ReactNode } from 'react';

/** What a part story varies: the scenario, and where to freeze it. */
export interface FixtureArgs {
  readonly scenario: string;
  readonly freeze?: Pick<ScenarioRunOptions<Invoice>, 'upTo' | 'until' | 'then'>;
}

export interface FixtureProps extends FixtureArgs {
  readonly children: (run: ScenarioRun<Invoice>) => ReactNode;
}

/** Gives a part story its own in-memory run of a scenario. */
export function Fixture({ scenario: name, freeze, children }: FixtureProps) {
  const [run] = useState(() => {
    const scenario = getScenario(name);
    return createScenarioRun<Invoice>(scenario, {
      ...freeze,
      payloadSchema: scenario.usesInvoiceSchema === true ? invoiceSchema : undefined,
    });
  });
  return <div data-kestrel-run="">{children(run)}</div>;
}
