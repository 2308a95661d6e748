/** One request as it left the client. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query, e.g. `/v1/runs/run_1/events`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Wraps a real `fetch` so a test can count and read the requests a client sent (StrictMode must not send two),
 * while they still go over the network.
 *
 * @example
 * const recorder = recordingFetch();
 * const client = createRunClient({ baseUrl: kestrel.url, fetch: recorder.fetch });
 * expect(recorder.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
 */
export function recordingFetch(inner: typeof fetch = globalThis.fetch): {
  fetch: typeof fetch;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  const wrapped: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    requests.push({
      method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
      path: url.pathname + url.search,
      headers: Object.fromEntries(new Headers(init?.headers)),
      body: typeof init?.body === 'string' ? init.body : '',
    });
    return inner(input, init);
  };
  return { fetch: wrapped, requests };
}
