/**
 * True once an interaction's `expiresAt` has passed (at `now`, in ms); false without one, or with one that does
 * not read as a date. `respond()` refuses an answer then, and the prompt's countdown shows it expired at the same
 * moment.
 *
 * @example
 * if (isInteractionExpired(interaction.expiresAt, Date.now())) showExpired();
 */
export function isInteractionExpired(expiresAt: string | undefined, now: number): boolean {
  // NaN (no date) compares false.
  return Date.parse(expiresAt ?? '') <= now;
}
