/** The message of a thrown value, which need not be an `Error` (a rejected fetch may throw anything). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
