export { createNodeListener } from './node-listener.js';
export type { FetchHandler } from './node-listener.js';
