import { scenarios as sharedScenarios } from '../scenarios.js';
import { answerInteraction } from './answer-route.js';
import { errorResponse } from '@kestrel/core/internal';
import { RequestError } from './error-response.js';
import type { ResolvedHandlerOptions, ScenarioHandler, ScenarioHandlerOptions } from './options.js';
import { DELAY_HEADER, FAULT_HEADER, parseDelayHeader, parseRequestFaults } from './request-faults.js';
import type { RequestContext } from './request-context.js';
import { routeOf } from './routes.js';
import { RunRegistry } from './run-registry.js';
import { cancelRun, resumeRun, runResult, startRun } from './run-routes.js';
import { sleep } from './sleep.js';
import { listRuns } from './list-runs-route.js';
import { seedSessions } from './seed-sessions.js';

function resolve(options: ScenarioHandlerOptions): ResolvedHandlerOptions {
  const resolved = {
    scenarios: options.scenarios ?? sharedScenarios,
    defaultScenario: options.defaultScenario ?? 'completed-text',
    keepAliveMs: options.keepAliveMs ?? 15_000,
    eventDelayMs: options.eventDelayMs ?? 0,
    stallMs: options.stallMs,
    listing: options.listing ?? true,
  };
  if (!resolved.scenarios.some((scenario) => scenario.name === resolved.defaultScenario)) {
    throw new Error(`createScenarioHandler: default scenario "${resolved.defaultScenario}" is not among the scenarios`);
  }
  return resolved;
}

function route(context: RequestContext): Promise<Response> | Response {
  const found = routeOf(context.request);
  switch (found.kind) {
    case 'start-run':
      return startRun(context, found.sessionId);
    case 'answer':
      return answerInteraction(context, found.sessionId, found.interactionId);
    case 'resume':
      return resumeRun(context, found.runId);
    case 'cancel':
      return cancelRun(context, found.runId);
    case 'result':
      return runResult(context, found.runId);
    case 'list-runs':
      // docs/protocol.md#a-sessions-runs makes the listing optional; a client that gets 501 keeps the runs it started itself.
      if (!context.options.listing)
        return errorResponse(501, 'not_implemented', "This mock Kestrel does not list a session's runs");
      return listRuns(context, found.sessionId, found.before, found.limit);
    default:
      return found satisfies never;
  }
}

/**
 * A fake Kestrel as a web-standard handler (`Request => Promise<Response>`), playing the shared scenarios over
 * every resource of docs/protocol.md#resources. It runs anywhere `fetch` types exist: Node, browsers, workers.
 *
 * Which scenario a new run plays: the header `x-kestrel-scenario: <name>`, else an input starting with
 * `[scenario:<name>]`, else `defaultScenario` (`completed-text`). Per request, `x-kestrel-fault` injects
 * faults (comma-separated: `http-<status>`, `slow-start:<ms>`, `drop-at:<seq>`, `truncate-at:<seq>`,
 * `stall-at:<seq>[:<ms>]`, `malformed-at:<seq>`) and `x-kestrel-delay: <ms>` sets the pacing between events.
 *
 * @example
 * const handler = createScenarioHandler({ eventDelayMs: 30 });
 * const response = await handler(new Request('http://kestrel.test/v1/sessions/new/runs', {
 *   method: 'POST',
 *   headers: { accept: 'text/event-stream', 'x-kestrel-scenario': 'waiting-approval' },
 *   body: JSON.stringify({ input: 'Email the Q3 report to the board' }),
 * }));
 */
export function createScenarioHandler(options: ScenarioHandlerOptions = {}): ScenarioHandler {
  const resolved = resolve(options);
  const registry = new RunRegistry();
  seedSessions(registry, resolved.scenarios, options.seed ?? []);
  const open = new Set<AbortController>();
  const track = (abort: AbortController) => {
    open.add(abort);
    return () => open.delete(abort);
  };
  const handle = async (request: Request): Promise<Response> => {
    try {
      const faults = parseRequestFaults(request.headers.get(FAULT_HEADER));
      const delayMs = parseDelayHeader(request.headers.get(DELAY_HEADER));
      if (faults.slowStartMs !== undefined) await sleep(faults.slowStartMs, request.signal);
      // A client that gave up during a slow start must not leave a run behind.
      if (request.signal.aborted)
        return errorResponse(503, 'connection_closed', 'The client left before the response started.');
      if (faults.httpStatus !== undefined) {
        return errorResponse(
          faults.httpStatus,
          'injected_fault',
          `Injected fault: HTTP ${faults.httpStatus} (${FAULT_HEADER})`,
        );
      }
      return await route({ request, options: resolved, registry, faults, delayMs, track });
    } catch (error) {
      if (error instanceof RequestError) return error.toResponse();
      return errorResponse(500, 'internal', `The mock Kestrel failed: ${(error as Error).message}`);
    }
  };
  return Object.defineProperties(handle, {
    close: {
      value: () => {
        for (const abort of [...open]) abort.abort();
      },
    },
    openStreams: { get: () => open.size },
  }) as ScenarioHandler;
}
