/**
 * Milliseconds left before an interaction's `expiresAt` (0 once it has passed); `null` when it has no expiry, or
 * one that does not read as a date. `respond()` refuses an answer at 0, and the prompt's countdown shows the same.
 *
 * @example
 * if (interactionTimeLeft(interaction.expiresAt, Date.now()) === 0) showExpired();
 */
export function interactionTimeLeft(expiresAt: string | undefined, now: number): number | null {
  if (expiresAt === undefined) return null;
  const deadline = Date.parse(expiresAt);
  return Number.isNaN(deadline) ? null : Math.max(0, deadline - now);
}
