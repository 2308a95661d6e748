import { describe, expectTypeOf, it } from 'vitest';
import type { KestrelLabels } from '../components/labels.js';
import { de } from './de.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';

describe('the locale label sets', () => {
  it('are each a complete KestrelLabels', () => {
    expectTypeOf(de).toEqualTypeOf<KestrelLabels>();
    expectTypeOf(fr).toEqualTypeOf<KestrelLabels>();
    expectTypeOf(es).toEqualTypeOf<KestrelLabels>();
    expectTypeOf(ja).toEqualTypeOf<KestrelLabels>();
  });

  it('cannot leave a label out: a locale missing one does not type-check', () => {
    const { approve: _approve, ...incomplete } = de;
    // @ts-expect-error `approve` is missing
    const labels: KestrelLabels = incomplete;
    expectTypeOf(labels).toEqualTypeOf<KestrelLabels>();
  });
});
