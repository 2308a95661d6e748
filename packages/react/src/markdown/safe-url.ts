/**
 * The URL itself when it is an absolute http(s) URL that names its host, or a mailto URL; otherwise `null`. Model
 * output is untrusted: `javascript:`, `data:`, `vbscript:` and relative URLs never become links.
 */
export function safeUrl(url: string): string | null {
  const trimmed = url.trim();
  try {
    // The scheme is read as written, `//` included: `https:/path` parses as absolute on its own, yet a page of the
    // same scheme resolves it against itself (a link into the app). Then it must parse.
    return /^(?:https?:\/\/|mailto:)/i.test(trimmed) && new URL(trimmed) ? trimmed : null;
  } catch {
    return null;
  }
}
