import type { Scenario } from '../scenario.js';
import type { SessionSeed } from './options.js';
import type { RunRegistry } from './run-registry.js';

const MAX_SEEDED_RUNS = 100_000;
const MINUTE_MS = 60_000;

/**
 * Fills sessions with settled history: run `i` plays `scenarios[i % n]` to its end, its input numbered so every
 * entry of a long thread reads differently. Refuses what it cannot seed, naming it.
 * @throws {Error} for a bad count, an unknown scenario or a duplicate session id.
 */
export function seedSessions(
  registry: RunRegistry,
  scenarios: readonly Scenario[],
  seeds: readonly SessionSeed[],
): void {
  const seen = new Set<string>();
  for (const seed of seeds) {
    if (seed.sessionId === 'new' || seed.sessionId === '' || seen.has(seed.sessionId))
      throw new Error(`createScenarioHandler: seed session id "${seed.sessionId}" is reserved or given twice`);
    seen.add(seed.sessionId);
    if (!Number.isInteger(seed.runs) || seed.runs < 0 || seed.runs > MAX_SEEDED_RUNS)
      throw new Error(
        `createScenarioHandler: seed "${seed.sessionId}" runs must be an integer from 0 to ${MAX_SEEDED_RUNS}, got ${seed.runs}`,
      );
    const played = (seed.scenarios ?? ['completed-text']).map((name) => {
      const scenario = scenarios.find((candidate) => candidate.name === name);
      if (scenario === undefined)
        throw new Error(`createScenarioHandler: seed scenario "${name}" is not among the scenarios`);
      return scenario;
    });
    if (played.length === 0) throw new Error(`createScenarioHandler: seed "${seed.sessionId}" names no scenario`);
    const now = Date.now();
    for (let index = 0; index < seed.runs; index += 1) {
      const scenario = played[index % played.length] as Scenario;
      const run = registry.add(scenario, seed.sessionId, {
        input: `${scenario.input} (#${index + 1})`,
        createdAt: new Date(now - (seed.runs - index) * MINUTE_MS),
      });
      run.playToEnd();
    }
  }
}
