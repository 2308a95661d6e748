import { createRunClient, type RunClient } from '@kestrel/core';
import { SCENARIO_HEADER } from '@kestrel/testing';

/**
 * A run client for the chat page. With the mock, every new run plays the scenario `pick()` names (the mock's
 * scenario header, so the person's words stay as they typed them); against a real Kestrel no header is added and
 * the words are what the agent gets.
 */
export function createChatClient(pick: () => string): RunClient {
  return createRunClient({
    baseUrl: window.location.origin,
    heartbeatTimeoutMs: __KESTREL_MOCK__ ? 4_000 : 45_000,
    headers: (): Record<string, string> => (__KESTREL_MOCK__ ? { [SCENARIO_HEADER]: pick() } : {}),
  });
}
