import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  internalDataAttributes,
  publicDataAttributes,
  themeMarkers,
  type KestrelAction,
  type KestrelPart,
} from './styling-contract.js';

const src = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, src), 'utf8');
const isProduction = (file: string) => /\.tsx?$/.test(file) && !/\.(test|test-d|stories)\.tsx?$/.test(file);
const productionFiles = ['components', 'components/session', 'markdown', 'inspector'].flatMap((dir) =>
  readdirSync(new URL(`${dir}/`, src))
    .filter(isProduction)
    .map((file) => `${dir}/${file}`),
);
const names = (text: string) => new Set(text.match(/data-[a-z-]+(?=[=\]"':\s])/g) ?? []);
const publicNames = Object.keys(publicDataAttributes);
const docs = readFileSync(new URL('../../../../docs/components.md', import.meta.url), 'utf8');
const theme = read('theme.css');

describe('the styling contract', () => {
  it('classifies every data attribute the components render as public, a theme marker or internal', () => {
    const known = new Set<string>([...publicNames, ...themeMarkers, ...internalDataAttributes]);
    const rendered = new Set(productionFiles.flatMap((file) => [...names(read(file))]));
    expect([...rendered].filter((name) => !known.has(name)).sort()).toEqual([]);
    // Nothing listed that no component renders any more.
    // The two the app sets for the theme to read.
    const setByApp = new Set(['data-kestrel-theme', 'data-theme']);
    expect([...known].filter((name) => !rendered.has(name) && !setByApp.has(name)).sort()).toEqual([]);
  });

  it('gives data-kestrel-action to kit buttons only, one name per action', () => {
    const all = productionFiles.map(read).join('\n');
    // It once also marked the approval's requested action (a paragraph): that is data-kestrel-requested-action now.
    expect(all).not.toContain('data-kestrel-action=""');
    const named = new Set([...all.matchAll(/(?:data-kestrel-action|\baction)="([a-z-]+)"/g)].map((match) => match[1]));
    // `retry` or `reconnect` on RunErrorAlert's button comes from one expression, checked by its own test.
    const expected: readonly KestrelAction[] = [
      'approve',
      'cancel',
      'copy',
      'follow-again',
      'jump-to-latest',
      'load-older',
      'reject',
      'retry',
      'send',
      'send-again',
      'submit',
      'withdraw',
    ];
    expect([...named].sort()).toEqual(expected);
  });

  it('keeps theme.css on the public attributes and the theme markers', () => {
    const allowed = new Set<string>([...publicNames, ...themeMarkers]);
    expect([...names(theme)].filter((name) => !allowed.has(name)).sort()).toEqual([]);
  });

  it('documents each public attribute and each part name in docs/components.md', () => {
    const parts: readonly KestrelPart[] = [
      'status',
      'connection',
      'activity',
      'tool',
      'tool-notice',
      'log',
      'outcome',
      'draft',
      'assistant-text',
      'announcement',
      'finish-notice',
      'interaction',
      'payload',
      'error',
      'received-outcome',
      'thread',
      'entry',
      'message',
      'answer',
      'empty',
      'load-older',
      'composer',
      'session-status',
    ];
    const contract = docs.slice(docs.indexOf('## The styling contract'));
    expect(publicNames.filter((name) => !contract.includes(`\`${name}\``))).toEqual([]);
    expect(parts.filter((name) => !contract.includes(`\`${name}\``))).toEqual([]);
  });
});
