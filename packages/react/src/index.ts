export { useRunSelector } from './use-run-selector.js';
export type { RunActions, RunBinding, UseRunResult } from './types.js';
