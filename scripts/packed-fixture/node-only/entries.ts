// Every entry a Node server uses, compiled without the DOM lib: the kit's declarations must not need it.
// (@kestrel/ai-sdk is checked in the DOM project only: the AI SDK's own declarations name DOM types such as
// HeadersInit, RequestCredentials and FileList.)
import { createRunClient, toHeaders, type KestrelHeaders, type RunCompletedEvent } from '@kestrel/core';
import { createKestrelProxy, errorResponse, jsonRunResponse, sseResponse } from '@kestrel/server';
import { createMockKestrel } from '@kestrel/server/mock';
import { createNodeListener } from '@kestrel/server/node';
import { createScenarioHandler, getScenario, scenarios } from '@kestrel/testing';

const headers: KestrelHeaders = new Map([['authorization', 'Bearer t']]);
const client = createRunClient({ baseUrl: 'http://127.0.0.1:1', headers: async () => ({ authorization: 'Bearer t' }) });
const proxy = createKestrelProxy({ upstream: 'http://127.0.0.1:1', headers, getHeaders: () => [['x-user', 'u1']] });
const listener = createNodeListener(proxy);
const event: RunCompletedEvent | null = await client.fetchResult('run_1');
if (event !== null) {
  const response: Response = jsonRunResponse(event, { headers: { 'x-run': event.runId } });
  void response;
}
void [
  listener,
  errorResponse(404, 'not_found', 'no', { headers: toHeaders(headers) }),
  sseResponse,
  createMockKestrel,
  createScenarioHandler,
  getScenario,
  scenarios,
];
