/**
 * Headers the kit accepts wherever you hand it some: a plain record, name/value pairs, or anything iterable of
 * pairs (a `Headers` object, a `Map`). The kit's own type rather than the DOM's `HeadersInit`, so its declarations
 * compile in a Node-only project (`lib` without `dom`) as well as in a browser one.
 *
 * @example
 * const headers: KestrelHeaders = { authorization: `Bearer ${token}` };
 */
export type KestrelHeaders = Readonly<Record<string, string>> | Iterable<readonly [string, string]>;

/**
 * A fresh `Headers` holding `init`. The platform's constructor does the checking, so a malformed entry (a pair
 * without a value, an invalid name) throws its `TypeError` naming what was wrong.
 */
export function toHeaders(init?: KestrelHeaders): Headers {
  // Every KestrelHeaders shape is one the Headers constructor reads (it takes any iterable of pairs).
  return new Headers(init as HeadersInit | undefined);
}
