import type { RunBinding, RunSource } from '@kestrel/core';
import type { Invoice } from '@kestrel/testing';
import { expectTypeOf, test } from 'vitest';
import { PayloadPanel } from './payload-panel.js';
import { RunView } from './run-view.js';

test('renderPayload receives the payload type the run was given', () => {
  const run = {} as RunBinding<Invoice>;
  RunView({
    run,
    renderPayload: (invoice, context) => {
      expectTypeOf(invoice).toEqualTypeOf<Invoice>();
      expectTypeOf(context.runId).toEqualTypeOf<string | null>();
      return invoice.invoiceNumber;
    },
  });
  PayloadPanel({ run: {} as RunSource<Invoice>, renderPayload: (invoice) => invoice.total.toFixed(2) });
});

test('a renderer for another payload type is refused', () => {
  // @ts-expect-error the run's payload is an Invoice, not a string
  RunView({ run: {} as RunBinding<Invoice>, renderPayload: (text: string) => text });
});
