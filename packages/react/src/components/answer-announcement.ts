/**
 * At most this many characters of the answer are announced: about a minute of speech. A screen reader reads a live
 * region to its end and cannot skip within it; the rest is on the page, to read at the reader's own pace.
 */
export const ANNOUNCED_CHARS = 4_000;

/** A cut this close to the limit at a space is preferred to a cut inside a word. */
const WORD_SEARCH = 200;

// Elements that start a new line of text: their text is joined to the text before it with a line break, so
// "Heading" and "First paragraph" are not read as one word. Texts with none of them between them and the answer's
// element all find the same one (the element itself, one outside it, or none, read as the element): one block.
const BLOCKS =
  'address,article,aside,blockquote,dd,div,dl,dt,figcaption,figure,footer,h1,h2,h3,h4,h5,h6,header,hr,li,ol,p,pre,section,table,td,th,tr,ul';

// Controls an app put in the answer (a code block's copy button), and what it hid from assistive technology, are
// not the answer: a screen reader would otherwise hear "Copy code" in the middle of it.
const SKIPPED = 'button,[role=button],[aria-hidden=true i],[hidden],[inert]';

/** `text` (longer than `limit`) cut to `limit` characters, at a white space near the limit when there is one, never inside a surrogate pair. */
function cutAt(text: string, limit: number): string {
  let end = limit;
  for (let at = limit; at > limit - WORD_SEARCH && at > 0; at -= 1)
    if (/\s/.test(text[at]!)) {
      end = at;
      break;
    }
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end).trimEnd();
}

/**
 * What a screen reader hears of an answer shown in `element`: its text as rendered (markdown without its syntax,
 * one line per block), as plain text, cut to {@link ANNOUNCED_CHARS} at a word boundary and then followed by
 * `continues`. Reads no more of the page than it announces, so a 200 KB answer costs what a 4 KB one does.
 */
export function answerAnnouncement(element: Element, continues: string, limit = ANNOUNCED_CHARS): string {
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let text = '';
  let block: Element | undefined;
  for (let node = walker.nextNode(); node !== null && text.length <= limit; node = walker.nextNode()) {
    const value = (node as Text).data;
    const parent = node.parentElement!;
    // Only what the answer itself hides: a modal dialog hides the rest of the page (`aria-hidden` on the app's root)
    // while it is open, and an answer settling meanwhile must not be announced as empty because of it.
    const skipped = parent.closest(SKIPPED);
    if (value === '' || (skipped && element.contains(skipped))) continue;
    const own = parent.closest(BLOCKS) ?? element;
    if (block && own !== block && !/\s$/.test(text)) text += '\n';
    block = own;
    text += value.slice(0, limit + 1 - text.length);
  }
  text = text.trim();
  return text.length <= limit ? text : cutAt(text, limit) + continues;
}
