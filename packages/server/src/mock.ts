export { createMockKestrel } from './mock-kestrel.js';
export type { MockKestrel, MockKestrelOptions } from './mock-kestrel.js';
