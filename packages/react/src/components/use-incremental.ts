import { useState } from 'react';

/**
 * The value `derive` makes of `text`, handed the value made of the last text, so work on a growing text can reuse
 * what it already did. `derive` must give the same result for `text` from any earlier value (or `null`).
 */
export function useIncremental<T extends { readonly text: string }>(
  text: string,
  derive: (previous: T | null, text: string) => T,
): T {
  const [last, setLast] = useState<T>(() => derive(null, text));
  if (last.text === text) return last;
  // React's pattern for keeping what an earlier render computed: set during render, re-run before any commit.
  const next = derive(last, text);
  setLast(next);
  return next;
}
