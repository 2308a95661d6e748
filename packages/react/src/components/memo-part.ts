import { memo, type ComponentType, type ReactNode } from 'react';
import { everyKey } from './shallow-equal.js';

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

/** The same members but `state`: two results of `useRun` for the same run (a part reads state by subscribing). */
function sameRunMembers(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  return everyKey(a, b, (key) => key === 'state' || Object.is(a[key], b[key]));
}

/**
 * Props equal for a part: the same values under the same keys, where `run` may be a new object holding the same
 * functions. `useRun` returns one on every change; a part reads the run through its own subscription, not through it.
 */
export function samePartProps(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  return everyKey(a, b, (key) => {
    const x = a[key];
    const y = b[key];
    if (Object.is(x, y)) return true;
    return key === 'run' && isObject(x) && isObject(y) && sameRunMembers(x, y);
  });
}

/**
 * The part, re-rendered by its parent only when its props changed (see `samePartProps`): under a component that
 * re-renders on every delta, a part re-renders for its own slice only. Keeps the component's (generic) signature.
 */
export function memoPart<C extends (props: never) => ReactNode>(component: C): C {
  return memo(component as unknown as ComponentType<Record<string, unknown>>, samePartProps) as unknown as C;
}
