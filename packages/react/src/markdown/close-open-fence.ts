/**
 * Closes a code fence that is still open in streamed markdown, so the part after it does not flicker between
 * code and prose as deltas arrive. Complete markdown is returned unchanged.
 */
export function closeOpenFence(markdown: string): string {
  let open: string | null = null;
  for (const line of markdown.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) continue;
    if (open === null) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = null;
  }
  return open === null ? markdown : `${markdown}${markdown.endsWith('\n') ? '' : '\n'}${open}`;
}
