/** What {@link readLimited} read: the whole body, or why it stopped. */
export type LimitedRead =
  | { readonly kind: 'complete'; readonly bytes: Uint8Array }
  /** More than `limit` bytes came; reading stopped there and the stream was cancelled. */
  | { readonly kind: 'too-large' }
  /** The stream failed before its end (a dropped connection). */
  | { readonly kind: 'dropped' };

/**
 * Reads a body stream chunk by chunk, keeping at most `limit` bytes: the moment one more byte arrives the stream is
 * cancelled, so an oversized body is never held whole, however large it claims or turns out to be.
 */
export async function readLimited(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
  onChunk?: () => void,
): Promise<LimitedRead> {
  if (stream === null) return { kind: 'complete', bytes: new Uint8Array(0) };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onChunk?.();
      size += value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => undefined);
        return { kind: 'too-large' };
      }
      chunks.push(value);
    }
  } catch {
    return { kind: 'dropped' };
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { kind: 'complete', bytes };
}

/** A declared `content-length` above `limit` (a body that is refused without reading a byte of it). */
export function declaresMoreThan(headers: Headers, limit: number): boolean {
  const declared = headers.get('content-length');
  return declared !== null && /^[0-9]+$/.test(declared.trim()) && Number(declared) > limit;
}
