import { createRunClient } from '@kestrel/core';

/*
 * The mock sends a keep-alive every second (server/demo-backend.ts), so the demo can notice a silent connection
 * after 4 s instead of Kestrel's 45 s, and the stalled-heartbeat scenario resumes while you watch. Against a real
 * Kestrel (KESTREL_URL) the protocol's 45 s applies.
 */
export const runClient = createRunClient({
  baseUrl: window.location.origin,
  heartbeatTimeoutMs: __KESTREL_MOCK__ ? 4_000 : 45_000,
});
