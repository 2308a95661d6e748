/* The React tests run against the same loopback Kestrel as the client tests: see the file re-exported here. */
export { startLoopbackKestrel } from '../../../server/src/loopback-kestrel.test-helper.js';
export type { ClientSetup, LoopbackKestrel } from '../../../server/src/loopback-kestrel.test-helper.js';
