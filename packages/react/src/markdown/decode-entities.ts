// The named references model output actually uses. The full HTML table (2,231 names) would triple the size of
// the markdown entry; an unknown name stays as written, which is visible and harmless.
const named: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  deg: '°',
  times: '×',
  divide: '÷',
  plusmn: '±',
  euro: '€',
  larr: '←',
  rarr: '→',
  le: '≤',
  ge: '≥',
  ne: '≠',
};

// `x` and hex digits in either case; a name is then looked up as written (`named` has no `AMP`).
const reference = /&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z][a-z\d]{1,31}));/gi;

/**
 * Text with its character references (`&amp;`, `&#169;`, `&#x2014;`) decoded, as a browser would show them.
 * marked leaves references in text for an HTML renderer; elements built by React would show them literally.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(reference, (whole, decimal?: string, hex?: string, name?: string) => {
    if (name !== undefined) return Object.hasOwn(named, name) ? named[name]! : whole;
    // Otherwise the pattern matched a number, decimal or hex.
    const value = decimal === undefined ? Number.parseInt(hex!, 16) : Number.parseInt(decimal, 10);
    // CommonMark: 0, surrogates and values past U+10FFFF become the replacement character.
    return value === 0 || (value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff
      ? '\ufffd'
      : String.fromCodePoint(value);
  });
}
