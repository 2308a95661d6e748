/** Shorter values are not secrets, and replacing them would garble every message they happen to occur in. */
const MIN_SECRET_LENGTH = 4;

/** The secret parts of a header value: the whole value and, for `Bearer <token>`-style values, the token alone. */
function secretsOf(value: string): string[] {
  const space = value.indexOf(' ');
  return space > 0 ? [value, value.slice(space + 1).trim()] : [value];
}

/**
 * Replaces every credential value the proxy sent upstream with `[redacted]` in a message it relays to the browser,
 * so an upstream that echoes the request ("bad token sk_live_...") cannot hand the key to the browser.
 */
export function redactor(...headerSets: Headers[]): (message: string) => string {
  const secrets = headerSets
    .flatMap((headers) => [...headers.values()].flatMap(secretsOf))
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    // Longest first, so a token inside a longer value is not left half-replaced.
    .sort((a, b) => b.length - a.length);
  return (message) => secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), message);
}
