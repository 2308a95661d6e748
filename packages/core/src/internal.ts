/*
 * @kestrel/core/internal: helpers the kit's own packages share (the server helpers, the mock Kestrel) that are
 * not part of the public API. No semver promise: they change with the kit, and an app should not import them.
 */
export { AppendLog } from './run/append-log.js';
export { backoffDelay } from './client/backoff.js';
export { declaresMoreThan, readLimited } from './client/read-limited.js';
export type { LimitedRead } from './client/read-limited.js';
export { errorResponse, jsonResponse } from './protocol/error-response.js';
export { fastAcceptMessages } from './protocol/fast-accept-message.js';
export type { RequestIssue } from './protocol/error-response.js';
export { kestrelIdProblem } from './protocol/kestrel-id.js';
export { protocolErrorAction } from './run/protocol-error-action.js';
export { toWireEvent } from './protocol/encode-run-event.js';
export { createSSEParser, DEFAULT_MAX_MESSAGE_BYTES } from './sse/sse-parser.js';
