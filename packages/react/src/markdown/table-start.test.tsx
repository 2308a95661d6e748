import { render } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MarkdownText } from './markdown-text.js';

/** The HTML inside MarkdownText's element and its one group, tables without their scroll box. */
const inner = (html: string) =>
  html
    .replace(/^<div[^>]*><div data-kestrel-markdown-group="">/, '')
    .replace(/<\/div><\/div>$/, '')
    .replace(/<div data-kestrel-table-scroll="">(<table>.*?<\/table>)<\/div>/g, '$1');
const streamingHtml = (text: string) => inner(renderToStaticMarkup(<MarkdownText streaming>{text}</MarkdownText>));
const finalHtml = (text: string) => inner(renderToStaticMarkup(<MarkdownText>{text}</MarkdownText>));
const head = (...cells: string[]) => `<table><thead><tr>${cells.join('')}</tr></thead></table>`;

describe('a table a streaming answer is starting', () => {
  const table = '| Plan | **Price** | Notes |\n| :--- | ---: | --- |\n| Free | $0 | basic |\n| Pro | $9 | more |\n';

  it.each([
    ['after a blank line', `Here are the plans:\n\n${table}`],
    // marked makes it a block of its own, after the paragraph's: so does the table shown before it is one.
    ['right after a line of a paragraph', `Here are the plans:\n${table}`],
  ])('is a table from its header row on, and the same table element to the end: %s', (_, answer) => {
    const { container, rerender } = render(<MarkdownText streaming>{''}</MarkdownText>);
    const tableFrom = answer.indexOf('| P') + 3;
    let table: HTMLTableElement | null = null;
    for (let end = 1; end <= answer.length; end++) {
      rerender(<MarkdownText streaming>{answer.slice(0, end)}</MarkdownText>);
      // Never a pipe, nor a dash of the delimiter row, as text.
      expect(container.textContent).not.toMatch(/[|]|--/);
      if (end < tableFrom) {
        expect(container.querySelector('table')).toBeNull();
        continue;
      }
      table ??= container.querySelector('table');
      expect(container.querySelector('table')).toBe(table);
    }
    rerender(<MarkdownText>{answer}</MarkdownText>);
    expect(container.querySelector('table')).toBe(table);
    expect([...table!.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Plan', 'Price', 'Notes']);
    expect(table!.querySelectorAll('tbody tr')).toHaveLength(2);
  });

  it.each([
    ['its header row being written', '| Plan | Pri', head('<th>Plan</th>', '<th>Pri</th>')],
    ['markup its header cell leaves open', '| Plan | **Pri', head('<th>Plan</th>', '<th><strong>Pri</strong></th>')],
    ['a marker with nothing after it yet', '| Plan | **', head('<th>Plan</th>', '<th></th>')],
    ['its header row ended', '| Plan | Price |\n', head('<th>Plan</th>', '<th>Price</th>')],
    [
      'the alignment its delimiter row has so far',
      '| Plan | Price | Notes |\n| :-- | -:',
      head('<th align="left">Plan</th>', '<th align="right">Price</th>', '<th>Notes</th>'),
    ],
    [
      'a colon that starts a delimiter cell',
      '| Plan | Price |\n| :',
      head('<th align="left">Plan</th>', '<th>Price</th>'),
    ],
    ['a paragraph line before it', 'Plans:\n| Plan | Price', `<p>Plans:</p>${head('<th>Plan</th>', '<th>Price</th>')}`],
    ['an escaped pipe in a cell', '| a \\| b | c |\n|', head('<th>a | b</th>', '<th>c</th>')],
    ['a row that has just started: its `|` left out', 'Plans:\n\n|', '<p>Plans:</p>'],
    ['an empty first cell with nothing after it yet, left out', 'Plans:\n\n| |', '<p>Plans:</p>'],
    ['an empty first cell', '| | Free', head('<th></th>', '<th>Free</th>')],
    ['the same after a paragraph line', 'Plans:\n| ', '<p>Plans:</p>'],
  ])('is shown as a table: %s', (_, text, html) => {
    expect(streamingHtml(text)).toBe(html);
    // Once the answer is final, a table whose delimiter row never came is shown as written.
    expect(finalHtml(text)).not.toContain('<table>');
  });

  it.each([
    ['a pipe with no space after it (prose)', '|x| is the absolute value of'],
    ['a delimiter row that ended with fewer cells than the header', '| Plan | Price |\n|--\n'],
    ['a delimiter row with more cells than the header', '| Plan | Price |\n| -- | -- | -- '],
    ['a second line that is not a delimiter row', '| Plan | Price |\n| Free'],
    ['a pipe inside a line', 'Use a | b to pipe'],
    ['a delimiter row indented as code', '| Plan | Price |\n    |---|---|'],
    ['a tab in a delimiter row', '| Plan | Price |\n|\t---'],
    // GFM splits cells there too, so the header would show the backticks.
    ['a pipe inside code in the header', '| `a|b` | c'],
    ['a header a blank line closed', '| Plan | Price\n\n'],
  ])('is shown as written: %s', (_, text) => {
    expect(streamingHtml(text)).toBe(finalHtml(text));
  });
});
