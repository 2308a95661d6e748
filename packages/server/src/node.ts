export { createNodeListener } from './node-listener.js';
export type { FetchHandler, NodeListenerOptions } from './node-listener.js';
export { listenOnLoopback } from './listen-loopback.js';
export type { LoopbackServer } from './listen-loopback.js';
export { nodeFetch } from './node-fetch.js';
