import type { KestrelRoute } from '@kestrel/core';
import type { RelayContext } from './proxy-response.js';

/** The upstream request's abort and its silence timer (see `upstreamControls` in kestrel-proxy.ts). */
export interface UpstreamControls {
  readonly signal: AbortSignal;
  readonly stop: () => void;
  readonly clear: () => void;
  readonly silence: { readonly reset: () => void; readonly timedOut: () => boolean; readonly timeoutMs: number };
}

/** A browser request the proxy checked and admitted: what goes to Kestrel, and how its answer is relayed. */
export interface UpstreamCall {
  readonly route: KestrelRoute;
  readonly target: URL;
  /** Upper case. */
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  /** Armed already: the headers' timeout runs, and the browser leaving stops the upstream. */
  readonly controls: UpstreamControls;
  /** What the relay of the answer is told (relayUpstream, or the node:http relay of an event stream). */
  readonly context: RelayContext;
  /** The answer when the upstream request failed before its headers (the browser left, timeout, unreachable). */
  failed(error: unknown): Response;
  /** Stops listening to the browser's request: whoever relays from here on watches the browser itself. */
  detach(): void;
}

/**
 * The entry `createKestrelProxy` attaches to its handler (under {@link NODE_PROXY}) when the app left `fetch` to
 * the kit, for `createNodeListener`: every check before the upstream call, the same code as the handler's, then
 * the listener reaches Kestrel over `node:http` and writes an event stream straight to the `ServerResponse`.
 */
export interface NodeProxyEntry {
  /** Steps 1 to 6 of the proxy: the answer that refuses the request, or the upstream call to make. */
  prepare(request: Request): Promise<Response | UpstreamCall>;
}

/** Where a proxy handler keeps its {@link NodeProxyEntry}: a symbol, so nothing else sees or sets it. */
export const NODE_PROXY = Symbol('kestrel.proxy.node');

/** The handler's native entry, when it is a proxy that has one. */
export function nodeProxyEntry(handler: object): NodeProxyEntry | undefined {
  return (handler as { [NODE_PROXY]?: NodeProxyEntry })[NODE_PROXY];
}
