export { useRunSelector } from './use-run-selector.js';
export type { RunActions, RunBinding, UseRunResult } from './types.js';
export { KestrelProvider, useKestrelClient } from './kestrel-provider.js';
export type { KestrelProviderProps } from './kestrel-provider.js';
export type { KestrelDefaults } from './kestrel-context.js';
export { useRun } from './use-run.js';
export { useRunBinding } from './use-run-binding.js';
export type { UseRunOptions } from './use-run-binding.js';
