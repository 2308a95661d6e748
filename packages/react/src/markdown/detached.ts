/**
 * A copy of `text` that shares no memory with the string it was cut from. Tokens are slices of the text lexed, and a
 * stream's text is a new string at every update, so tokens lexed from a slice of it would keep that whole text alive
 * as long as they live (a settled block's, for good): one copy of the answer per block or piece kept. A joined string
 * is flattened into a new one when it is sliced, and the slice drops the character joined.
 */
export const detached = (text: string): string => ` ${text}`.slice(1);
