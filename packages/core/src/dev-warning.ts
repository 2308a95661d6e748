/** At most this many different warnings are printed: a loop that makes new ones cannot flood the console. */
const MAX_WARNINGS = 50;
const warned = new Set<string>();

/**
 * Prints a development warning once. Call it only behind `if (process.env.NODE_ENV !== 'production')` written at
 * the call site, exactly so: bundlers (Vite, webpack, esbuild, Next.js) replace that expression with a string, which
 * drops the call and its message from production builds (the size budgets never pay for them) and keeps it in
 * development, where the browser has no `process`. Guarding it with `typeof process === 'object'` silenced every
 * warning in a Vite or webpack app. In the core, which runs without React too, the guarded block sits in a
 * `try`: with neither a bundler nor `process` (a plain ES module in a browser) reading `process` throws, and then
 * there is no warning, and no error. Minifiers drop the block, `try` and all, once the define makes it dead.
 */
export function warnOnce(message: string): void {
  if (warned.has(message) || warned.size >= MAX_WARNINGS) return;
  warned.add(message);
  console.warn(`[kestrel] ${message}`);
}
