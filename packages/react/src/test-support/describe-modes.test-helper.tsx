import { StrictMode, type ReactElement } from 'react';
import { describe } from 'vitest';

export interface RenderMode {
  readonly strict: boolean;
  /** Testing Library render options: `reactStrictMode` puts StrictMode at the root. */
  readonly options: { readonly reactStrictMode: boolean };
  /** Wraps a root element in `<StrictMode>` (or returns it), for roots made by hand (`hydrateRoot`). */
  wrap(element: ReactElement): ReactElement;
}

/*
 * StrictMode must be the ROOT element: React 19 double-invokes effects only then. A <StrictMode> inside a wrapper
 * component still renders twice but runs effects once, which would hide exactly the bugs these suites look for.
 */
const modes: readonly RenderMode[] = [
  { strict: false, options: { reactStrictMode: false }, wrap: (element) => element },
  { strict: true, options: { reactStrictMode: true }, wrap: (element) => <StrictMode>{element}</StrictMode> },
];

/** Declares a suite twice, once plain and once under StrictMode (double render, double effects). */
export function describeModes(name: string, body: (mode: RenderMode) => void): void {
  for (const mode of modes) describe(`${name} [${mode.strict ? 'StrictMode' : 'plain'}]`, () => body(mode));
}
