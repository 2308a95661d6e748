import { createScenarioSource, getScenario } from '@kestrel/testing';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AssistantText } from '../components/assistant-text.js';
import { expectNoAxeViolations } from '../components/axe-check.test-helper.js';
import { closeOpenFence } from './close-open-fence.js';
import { MarkdownText, renderMarkdown } from './markdown-text.js';

describe('MarkdownText', () => {
  it('renders markdown structure', async () => {
    const { container } = render(
      <MarkdownText>{'# Plan\n\n- **one**\n- `two`\n\n[docs](https://example.com/docs)'}</MarkdownText>,
    );
    expect(screen.getByRole('heading', { name: 'Plan' })).toBeTruthy();
    expect(container.querySelector('strong')?.textContent).toBe('one');
    expect(screen.getByRole('link', { name: 'docs' }).getAttribute('href')).toBe('https://example.com/docs');
    expect(screen.getByRole('link', { name: 'docs' }).getAttribute('rel')).toContain('noopener');
    await expectNoAxeViolations(container);
  });

  it('drops raw HTML instead of rendering it', () => {
    const { container } = render(
      <MarkdownText>
        {'Hi <img src=x onerror="alert(1)"> <script>alert(2)</script><b>bold</b>\n\n<div onclick="x()">block</div>'}
      </MarkdownText>,
    );
    expect(container.querySelector('img, script, b, [onclick], [onerror]')).toBeNull();
    expect(container.innerHTML).not.toContain('onerror');
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<b>x</b>',
    'vbscript:x',
    '/relative',
    ' javascript:alert(1)',
  ])('keeps the text of a %s link but not its target', (url) => {
    const { container } = render(<MarkdownText>{`[click me](${url}) and <${url}>`}</MarkdownText>);
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('click me');
  });

  it('keeps http(s) and mailto links, and shows images as their alt text only', () => {
    const { container } = render(
      <MarkdownText>
        {'[a](http://a.example) [b](mailto:b@example.com) ![chart of sales](https://t.example/p.gif)'}
      </MarkdownText>,
    );
    expect([...container.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      'http://a.example',
      'mailto:b@example.com',
    ]);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('chart of sales');
  });

  it('renders every prefix of a markdown answer without throwing (partial markdown while streaming)', () => {
    const full =
      '## Steps\n\n1. Run `npm i`\n2. See [the guide](https://example.com/guide)\n\n```ts\nconst x = 1;\n```\n\n> **Note** the *end*';
    for (let end = 0; end <= full.length; end += 1) {
      const { unmount } = render(<MarkdownText streaming>{full.slice(0, end)}</MarkdownText>);
      unmount();
    }
    expect(closeOpenFence('text\n```ts\nconst x')).toBe('text\n```ts\nconst x\n```');
    expect(closeOpenFence('```\na\n```\n')).toBe('```\na\n```\n');
  });

  it('plugs into AssistantText as its text renderer', () => {
    render(<AssistantText run={createScenarioSource(getScenario('completed-text'))} renderText={renderMarkdown} />);
    expect(screen.getByRole('log').querySelector('[data-kestrel-markdown="final"] p')?.textContent).toContain(
      'Canberra',
    );
  });
});
