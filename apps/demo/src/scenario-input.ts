import type { Scenario } from '@kestrel/testing';

/**
 * The input for a scenario. The mock Kestrel plays the scenario named by an input that starts with
 * `[scenario:<name>]`; a real Kestrel (KESTREL_URL) gets the scenario's plain words.
 */
export function scenarioInput(scenario: Scenario): string {
  return __KESTREL_MOCK__ ? `[scenario:${scenario.name}] ${scenario.input}` : scenario.input;
}
