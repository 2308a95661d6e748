import { invoiceSchema } from '@kestrel/testing';
import { createElement, Fragment, StrictMode, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { KestrelProvider } from './kestrel-provider.js';
import { useRun } from './use-run.js';
import { useRunSelector } from './use-run-selector.js';

/*
 * Server rendering runs in the node project: no `window`, no `document`, exactly like a server.
 */

function RunSummary() {
  const run = useRun({ payloadSchema: invoiceSchema, resumeRunId: 'run_from_url' });
  const phase = useRunSelector(run, (state) => state.phase);
  return createElement(
    'section',
    { 'data-phase': run.state.phase, 'data-selected': phase },
    run.state.draftText || 'Ask something',
  );
}

for (const strict of [false, true]) {
  describe(`server rendering [${strict ? 'StrictMode' : 'plain'}]`, () => {
    const wrap = (children: ReactNode) => createElement(strict ? StrictMode : Fragment, null, children);

    it('renders the idle markup without a window and without sending anything', () => {
      expect(typeof window).toBe('undefined');
      const fetch = vi.fn<typeof globalThis.fetch>();
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const html = renderToString(
        wrap(
          createElement(
            KestrelProvider,
            { baseUrl: 'http://127.0.0.1:9', clientOptions: { fetch } },
            createElement(RunSummary),
          ),
        ),
      );
      expect(html).toBe('<section data-phase="idle" data-selected="idle">Ask something</section>');
      expect(fetch).not.toHaveBeenCalled();
      expect(errors).not.toHaveBeenCalled();
      errors.mockRestore();
    });

    it('names the missing provider clearly', () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      expect(() => renderToString(wrap(createElement(RunSummary)))).toThrow(/KestrelProvider/);
      errors.mockRestore();
    });
  });
}
