/** At most this many different warnings are printed: a loop that makes new ones cannot flood the console. */
const MAX_WARNINGS = 50;
const warned = new Set<string>();

/**
 * Prints a development warning once. Call it only behind a guard written at the call site,
 * `if (typeof process === 'object' && process.env.NODE_ENV !== 'production')`: bundlers replace the variable and
 * drop the call and its message from production builds, so the size budgets never pay for them.
 */
export function warnOnce(message: string): void {
  if (warned.has(message) || warned.size >= MAX_WARNINGS) return;
  warned.add(message);
  console.warn(`[kestrel] ${message}`);
}
