import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { answerAnnouncement } from './answer-announcement.js';

const continues = ' [more]';
const announce = (element: ReactElement, limit?: number) =>
  answerAnnouncement(render(element).container.firstElementChild!, continues, limit);

describe('answerAnnouncement', () => {
  it('reads the text as shown, one line per block, so a heading and a paragraph are not run together', () => {
    const heard = announce(
      <div>
        <h2>Results</h2>
        <p>
          The total is <strong>42</strong> euros.
        </p>
        <ul>
          <li>first</li>
          <li>second</li>
        </ul>
        <table>
          <tbody>
            <tr>
              <td>item</td>
              <td>amount</td>
            </tr>
          </tbody>
        </table>
      </div>,
    );
    expect(heard).toBe('Results\nThe total is 42 euros.\nfirst\nsecond\nitem\namount');
  });

  it("leaves out buttons and what is hidden from assistive technology: an app's controls are not the answer", () => {
    const heard = announce(
      <div>
        <p>Run it:</p>
        <div role="group" aria-label="Code, sh">
          <div>
            <span aria-hidden="true">sh</span>
            <button type="button">
              <span>Copy</span> code
            </button>
          </div>
          <pre>
            <code>pnpm test</code>
          </pre>
        </div>
        <p>
          Done <span aria-hidden="true">✓</span>
        </p>
      </div>,
    );
    expect(heard).toBe('Run it:\npnpm test\nDone');

    const others = announce(
      <div>
        <p>
          Kept <span role="button">Copy</span>
          <span aria-hidden="true">icon</span>
          <span hidden>hidden</span>
          <span inert>inert</span>
        </p>
      </div>,
    );
    expect(others).toBe('Kept');

    // As browsers read it: the attribute's value in any case.
    const root = document.createElement('div');
    root.innerHTML = '<p>Kept <span aria-hidden="TRUE">icon</span></p>';
    expect(answerAnnouncement(root, continues)).toBe('Kept');
  });

  it('reads an answer inside a part of the page a modal dialog hid: only what the answer itself hides is skipped', () => {
    const { container } = render(
      <main aria-hidden="true">
        <div>
          <p>The answer</p>
          <button type="button">Copy</button>
        </div>
      </main>,
    );
    expect(answerAnnouncement(container.querySelector('main > div')!, continues)).toBe('The answer');
  });

  it('breaks lines between blocks under an element that is not a block itself', () => {
    const root = document.createElement('span');
    root.append('Intro', Object.assign(document.createElement('p'), { textContent: 'Para' }));
    expect(answerAnnouncement(root, continues)).toBe('Intro\nPara');
  });

  it('gives a short text whole, and a long one cut at a word boundary, then says it continues', () => {
    expect(announce(<div>{'short answer'}</div>, 20)).toBe('short answer');
    expect(announce(<div>{'one two three four five six'}</div>, 12)).toBe(`one two${continues}`);
  });

  it('cuts a text without spaces at the limit, never between the halves of a surrogate pair', () => {
    expect(announce(<div>{'x'.repeat(500)}</div>, 300)).toBe(`${'x'.repeat(300)}${continues}`);
    expect(announce(<div>{`${'x'.repeat(299)}😀😀`}</div>, 300)).toBe(`${'x'.repeat(299)}${continues}`);
  });

  it('announces at most the limit of a very long answer, at a word boundary', () => {
    const long = 'word '.repeat(100_000);
    const heard = announce(
      <div>
        <p>{long}</p>
        <p>{long}</p>
      </div>,
      4_000,
    );
    expect(heard.length).toBeLessThanOrEqual(4_000 + continues.length);
    expect(heard.endsWith(`word${continues}`)).toBe(true);
  });
});
