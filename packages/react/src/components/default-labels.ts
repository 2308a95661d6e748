import { useContext, useMemo } from 'react';
import { defaultRunLabels, LabelsContext, type KestrelLabels } from './labels.js';
import { defaultSessionLabels } from './session/session-labels.js';

/** The English defaults, every one of them: the run parts' and the conversation's. */
export const defaultLabels: KestrelLabels = /* @__PURE__ */ Object.assign({}, defaultRunLabels, defaultSessionLabels);

/** The labels in effect: the English defaults, the providers' on top, then a component's own `labels` prop. */
export function useKestrelLabels(override?: Partial<KestrelLabels>): KestrelLabels {
  const context = useContext(LabelsContext);
  return useMemo(() => ({ ...defaultLabels, ...context, ...override }), [context, override]);
}
