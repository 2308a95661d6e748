import { Fragment, StrictMode, type ReactNode } from 'react';
import { describe } from 'vitest';

export interface RenderMode {
  readonly strict: boolean;
  /** Wraps a tree in `<StrictMode>` or in nothing; pass it as Testing Library's `wrapper`. */
  readonly Wrapper: (props: { children?: ReactNode }) => ReactNode;
}

const modes: readonly RenderMode[] = [
  { strict: false, Wrapper: ({ children }) => <Fragment>{children}</Fragment> },
  { strict: true, Wrapper: ({ children }) => <StrictMode>{children}</StrictMode> },
];

/** Declares a suite twice, once plain and once under StrictMode (double render, double effects). */
export function describeModes(name: string, body: (mode: RenderMode) => void): void {
  for (const mode of modes) describe(`${name} [${mode.strict ? 'StrictMode' : 'plain'}]`, () => body(mode));
}
