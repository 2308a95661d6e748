import type { MarkedToken, Token, Tokens } from 'marked';
import { Fragment, memo, type ReactNode } from 'react';
import { CodeBlock } from './code-block.js';
import { decodeEntities } from './decode-entities.js';
import { isPiece } from './inline-pieces.js';
import { safeUrl } from './safe-url.js';
import { watchScrollBox } from './scroll-box.js';

/*
 * marked's tokens turned into React elements, by hand: marked's own renderer builds HTML strings, and text must
 * never become HTML. Every string reaches the DOM as a text node or an attribute React escapes. Raw HTML tags are
 * dropped (a block's text stays), links keep only http(s) and mailto targets, images show their alt text (no
 * remote loads).
 */

// Nesting past this (`>` or `- ` a thousand times over, a few KB of model output) is shown as its text: each level
// is a frame of this renderer and several of React's, and the stack would overflow, unmounting the app's root.
const MAX_DEPTH = 64;
let depth = 0;

function renderTokens(tokens: readonly Token[]): ReactNode[] {
  if (depth >= MAX_DEPTH) return tokens.map((token) => token.raw);
  depth += 1;
  try {
    return tokens.map(renderToken);
  } finally {
    depth -= 1;
  }
}

// Tags, comments and declarations of a raw HTML block: dropped, so the text between them stays.
const TAG = /<[^>]*>/g;

function renderLink(token: Tokens.Link, key: number): ReactNode {
  // A character reference in a destination stands for its character, as it would in an HTML attribute.
  const href = safeUrl(decodeEntities(token.href));
  const children = renderTokens(token.tokens);
  // A link whose URL was refused keeps its text and loses its target.
  return href === null ? (
    <span key={key} data-kestrel-refused-link="">
      {children}
    </span>
  ) : (
    <a key={key} href={href} title={decodeEntities(token.title ?? '') || undefined} rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

function renderCell(cell: Tokens.TableCell, index: number): ReactNode {
  const Cell = cell.header ? 'th' : 'td';
  return (
    <Cell key={index} align={cell.align ?? undefined}>
      {renderTokens(cell.tokens)}
    </Cell>
  );
}

function renderRow(cells: readonly Tokens.TableCell[], key?: number): ReactNode {
  return <tr key={key}>{cells.map(renderCell)}</tr>;
}

// A streaming table keeps its row objects while rows are added (open-block.ts), so memo renders only the new rows.
// Only a top-level block streams so: nested deeper, rows and items render in line, where MAX_DEPTH counts them (a
// component renders on its own, with the count at 0).
const TableRow = memo(function TableRow({ cells }: { readonly cells: readonly Tokens.TableCell[] }) {
  return renderRow(cells);
});

function renderTable(token: Tokens.Table, key: number): ReactNode {
  // In a box of its own, which the theme lets scroll sideways: the table keeps its display, and so its semantics.
  // Focusable while it scrolls, so a keyboard can scroll it where the browser does not make scrolling boxes
  // focusable (Safari).
  return (
    <div key={key} data-kestrel-table-scroll="" ref={watchScrollBox}>
      <table>
        <thead>{renderRow(token.header)}</thead>
        {token.rows.length === 0 ? null : (
          <tbody>
            {token.rows.map((row, index) =>
              depth === 0 ? <TableRow key={index} cells={row} /> : renderRow(row, index),
            )}
          </tbody>
        )}
      </table>
    </div>
  );
}

// The same for a streaming list's items.
const ListItem = memo(function ListItem({ item }: { readonly item: Tokens.ListItem }) {
  return renderToken(item, 0);
});

function renderList(token: Tokens.List, key: number): ReactNode {
  const items = token.items.map((item, index) =>
    depth === 0 ? <ListItem key={index} item={item} /> : renderToken(item, index),
  );
  if (!token.ordered) return <ul key={key}>{items}</ul>;
  return (
    <ol key={key} start={token.start === '' || token.start === 1 ? undefined : token.start}>
      {items}
    </ol>
  );
}

// A piece of a long paragraph (inline-pieces.ts): kept from the last lex as the same object, so memo skips it. It
// renders on its own, so it is told the depth it is at: nested as deep, a short paragraph and a long one read alike.
const InlinePiece = memo(function InlinePiece({
  token,
  at,
}: {
  readonly token: Tokens.Text & { tokens: Token[] };
  readonly at: number;
}) {
  // Its tokens at the depth they would have in line: the paragraph's renderTokens has counted this level already.
  const outside = depth;
  depth = at;
  try {
    return token.tokens.map(renderToken);
  } finally {
    depth = outside;
  }
});

/** One marked token, block or inline, as React elements; `key` is its index among its siblings. */
export function renderToken(token: Token, key: number): ReactNode {
  const known = token as MarkedToken;
  switch (known.type) {
    case 'space':
    case 'def':
      return null;
    case 'html': {
      // Raw HTML is never rendered. Inline, a tag is dropped and the text around it is text tokens of its own; a
      // block is one token, whose text (`<div>\nImportant\n</div>`) would be lost with its tags.
      const text = known.block ? decodeEntities(known.text.replace(TAG, '')).trim() : '';
      return text === '' ? null : <p key={key}>{text}</p>;
    }
    case 'paragraph':
      return <p key={key}>{renderTokens(known.tokens)}</p>;
    case 'heading': {
      // marked's lexer gives 1 to 6 (`#` to `######`; a setext heading is 1 or 2), and no extension reaches it.
      const Heading = `h${known.depth as 1 | 2 | 3 | 4 | 5 | 6}` as const;
      return <Heading key={key}>{renderTokens(known.tokens)}</Heading>;
    }
    case 'code': {
      return <CodeBlock key={key} token={known} />;
    }
    case 'blockquote':
      return <blockquote key={key}>{renderTokens(known.tokens)}</blockquote>;
    case 'list':
      return renderList(known, key);
    case 'list_item':
      return <li key={key}>{renderTokens(known.tokens)}</li>;
    case 'checkbox':
      // A ballot box character, not a disabled checkbox: a form control here would need a label in every locale,
      // while a screen reader names the character in its own language.
      return known.checked ? '☑ ' : '☐ ';
    case 'table':
      return renderTable(known, key);
    case 'hr':
      return <hr key={key} />;
    case 'text':
      if (known.tokens === undefined) return decodeEntities(known.text);
      return isPiece(known) ? (
        <InlinePiece key={key} token={known} at={depth} />
      ) : (
        <Fragment key={key}>{renderTokens(known.tokens)}</Fragment>
      );
    case 'escape':
      return known.text;
    case 'strong':
      return <strong key={key}>{renderTokens(known.tokens)}</strong>;
    case 'em':
      return <em key={key}>{renderTokens(known.tokens)}</em>;
    case 'del':
      return <del key={key}>{renderTokens(known.tokens)}</del>;
    case 'codespan':
      return <code key={key}>{known.text}</code>;
    case 'br':
      return <br key={key} />;
    case 'link':
      return renderLink(known, key);
    case 'image':
      // Model output does not get to load remote images (tracking pixels); its alt text is kept.
      return (
        <span key={key} data-kestrel-image="">
          {decodeEntities(known.text)}
        </span>
      );
    default:
      return known satisfies never;
  }
}
