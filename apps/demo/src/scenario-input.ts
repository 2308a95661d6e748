import type { Scenario } from '@kestrel/testing';

/**
 * The input that makes the mock Kestrel play a scenario: `[scenario:<name>] <input>` (a real Kestrel would
 * simply read the words).
 */
export function scenarioInput(scenario: Scenario): string {
  return `[scenario:${scenario.name}] ${scenario.input}`;
}
