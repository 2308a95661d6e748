import * as z from 'zod/mini';

/*
 * `zod/mini` ships no messages: without a locale every issue reads "Invalid input", and a ProtocolError would not
 * say what was wrong. zod's English locale costs about 1 kB gz in every app's bundle (issue 8's budget) and would
 * have to be installed globally, changing messages of the app's own schemas. This map covers only the issues the
 * Kestrel schemas can raise, in the words of zod's English locale, and is passed per parse. An app that chose a
 * locale with `z.config(...)` keeps it: the map steps aside.
 */

function received(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && !Number.isFinite(input)) return String(input);
  return typeof input;
}

const quote = (value: unknown) => (typeof value === 'string' ? `"${value}"` : String(value));

function message(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${issue.expected}, received ${received(issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `Invalid input: expected ${quote(issue.values[0])}`
        : `Invalid option: expected one of ${issue.values.map(quote).join('|')}`;
    case 'too_small': {
      const sized = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
      return `Too small: expected ${issue.origin} to ${sized ? 'have' : 'be'} ${issue.inclusive ? '>=' : '>'}${String(issue.minimum)}${sized}`;
    }
    case 'too_big':
      return `Too big: expected ${issue.origin} to be ${issue.inclusive ? '<=' : '<'}${String(issue.maximum)}`;
    case 'invalid_format':
      return `Invalid ${issue.format}`;
    default:
      return 'Invalid input';
  }
}

/**
 * The error map the Kestrel schemas are parsed with: messages such as "Invalid input: expected string, received
 * number". Pass it when parsing with an exported schema yourself, to get the same messages.
 *
 * @example
 * const result = runOutputSchema.safeParse(value, { error: protocolErrorMap });
 */
export const protocolErrorMap: z.core.$ZodErrorMap = (issue) =>
  z.config().localeError === undefined ? message(issue) : undefined;

/** The parse options every Kestrel parse uses. */
export const protocolParseOptions = { error: protocolErrorMap } as const;
