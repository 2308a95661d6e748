const allowed = new Set(['http:', 'https:', 'mailto:']);

/**
 * The URL itself when it is an absolute http(s) or mailto URL, otherwise `null`. Model output is untrusted:
 * `javascript:`, `data:`, `vbscript:` and relative URLs never become links.
 */
export function safeUrl(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    return allowed.has(parsed.protocol) ? url.trim() : null;
  } catch {
    return null;
  }
}
