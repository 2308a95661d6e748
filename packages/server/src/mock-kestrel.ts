import { createScenarioHandler, type ScenarioHandler, type ScenarioHandlerOptions } from '@kestrel/testing';
import { listenOnLoopback } from './listen-loopback.js';
import { createNodeListener } from './node-listener.js';

/** The scenario handler's options (scenarios, pacing, keep-alive, stalls) plus the port. */
export interface MockKestrelOptions extends ScenarioHandlerOptions {
  /** Port on 127.0.0.1; default 0, a free one. */
  readonly port?: number;
}

/** A running mock Kestrel, as {@link createMockKestrel} returns it. */
export interface MockKestrel {
  /** `http://127.0.0.1:<port>`: the client's `baseUrl`. */
  readonly url: string;
  readonly port: number;
  /** The scenario handler behind the server. */
  readonly handler: ScenarioHandler;
  /** Ends open streams and resolves once the server has closed. */
  close(): Promise<void>;
}

/**
 * A fake Kestrel on a real loopback HTTP server, playing the shared scenarios over every resource of
 * docs/protocol.md#resources. A request picks its scenario with `x-kestrel-scenario: <name>` or an input starting
 * with `[scenario:<name>]`, and injects faults with `x-kestrel-fault` (see `createScenarioHandler`). It keeps
 * sessions: the listing pages them, a second start while one is live answers `409 run_in_progress`, and `seed`
 * starts it with long histories (`listing: false` plays a server without the listing).
 *
 * @example
 * const kestrel = await createMockKestrel({ eventDelayMs: 30 });
 * const client = createRunClient({ baseUrl: kestrel.url });
 * await kestrel.close();
 */
export async function createMockKestrel(options: MockKestrelOptions = {}): Promise<MockKestrel> {
  const handler = createScenarioHandler(options);
  const loopback = await listenOnLoopback(createNodeListener(handler), options.port ?? 0);
  let closing: Promise<void> | undefined;
  return {
    url: loopback.url,
    port: loopback.port,
    handler,
    close() {
      if (closing === undefined) {
        handler.close();
        closing = loopback.close();
      }
      return closing;
    },
  };
}
