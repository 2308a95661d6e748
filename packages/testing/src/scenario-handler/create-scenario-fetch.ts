import { createScenarioHandler } from './create-scenario-handler.js';
import type { ScenarioHandler, ScenarioHandlerOptions } from './options.js';

/** Options of `createScenarioFetch`: the scenario handler's options, or a `handler` to share. */
export interface ScenarioFetchOptions extends ScenarioHandlerOptions {
  /** Serve this handler instead of creating one (to share runs with a server, or inspect it). */
  readonly handler?: ScenarioHandler;
}

/** Where relative URLs resolve when there is no page (Node, jsdom without a URL). */
const FALLBACK_ORIGIN = 'http://kestrel.mock';

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Makes reading the body fail with the abort reason once `signal` aborts, as a real fetch does. */
function abortableBody(body: ReadableStream<Uint8Array>, signal: AbortSignal): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      signal.addEventListener(
        'abort',
        () => {
          controller.error(abortError(signal));
          void reader.cancel(abortError(signal)).catch(() => undefined);
        },
        { once: true },
      );
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (signal.aborted) return;
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        if (!signal.aborted) controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/**
 * An in-memory `fetch` that sends every request, whatever its origin, to a scenario handler: no server, no
 * network. Storybook and jsdom tests pass it to the run client. Relative URLs resolve against the page.
 *
 * @example
 * const client = createRunClient({ baseUrl: '/', fetch: createScenarioFetch({ eventDelayMs: 30 }) });
 */
export function createScenarioFetch(options: ScenarioFetchOptions = {}): typeof fetch {
  const handler = options.handler ?? createScenarioHandler(options);
  const scenarioFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const base = (globalThis as { location?: { href?: string } }).location?.href ?? FALLBACK_ORIGIN;
    const url = input instanceof Request ? input.url : new URL(String(input), base).href;
    const request = new Request(input instanceof Request ? input : url, init);
    const signal = request.signal;
    if (signal.aborted) throw abortError(signal);
    const response = await new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      handler(request)
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
    if (response.body === null) return response;
    return new Response(abortableBody(response.body, signal), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return scenarioFetch as typeof fetch;
}
