import type { Scenario } from '../scenario.js';
import { RequestError } from './error-response.js';

/** Request header naming the scenario a new run plays, e.g. `x-kestrel-scenario: waiting-approval`. */
export const SCENARIO_HEADER = 'x-kestrel-scenario';
const PREFIX = /^\s*\[scenario:([^\]\s]+)\]\s*/;

/**
 * The scenario a start request plays: header `x-kestrel-scenario: <name>` first, then an input that begins with
 * `[scenario:<name>]`, else the default. An unknown name is a 400 listing the known ones.
 */
export function selectScenario(
  scenarios: readonly Scenario[],
  defaultName: string,
  header: string | null,
  input: string,
): Scenario {
  const name = header?.trim() || PREFIX.exec(input)?.[1] || defaultName;
  const scenario = scenarios.find((candidate) => candidate.name === name);
  if (scenario === undefined) {
    throw new RequestError(
      400,
      'unknown_scenario',
      `Unknown scenario "${name}". Known: ${scenarios.map((candidate) => candidate.name).join(', ')}`,
    );
  }
  return scenario;
}
