export { RunInspector } from './run-inspector.js';
export type { RunInspectorProps } from './run-inspector.js';
