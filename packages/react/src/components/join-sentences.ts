/**
 * Two sentences as one text: with a space between them, or none after a full-width stop (Japanese and Chinese
 * sentences follow each other without one). Either may be empty.
 */
export function joinSentences(first: string, second: string): string {
  if (first === '' || second === '') return first + second;
  return /[。！？]$/.test(first) ? first + second : `${first} ${second}`;
}
