export type { FetchHandler } from './node-listener.js';
