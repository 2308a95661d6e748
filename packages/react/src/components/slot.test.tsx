import * as Radix from '@radix-ui/react-slot';
import { act, cleanup, render } from '@testing-library/react';
import { createRef, type ReactNode, type Ref } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Own from './slot.js';

afterEach(cleanup);

type Kit = { Slot: typeof Own.Slot; Slottable: typeof Own.Slottable };
const kits: Record<'radix' | 'own', Kit> = {
  radix: { Slot: Radix.Slot as unknown as typeof Own.Slot, Slottable: Radix.Slottable as typeof Own.Slottable },
  own: Own,
};

/** Renders `tree` with each implementation and returns what each produced, for the reference comparison. */
function both(tree: (kit: Kit) => ReactNode) {
  return Object.fromEntries(
    Object.entries(kits).map(([name, kit]) => {
      const { container, unmount } = render(<>{tree(kit)}</>);
      const html = container.innerHTML;
      unmount();
      return [name, html];
    }),
  ) as Record<keyof typeof kits, string>;
}

/** A child as React Flight hands it over when its chunk is outlined (an async server component, a deduped element). */
function flightLazy(element: ReactNode): ReactNode {
  const chunk = { status: 'fulfilled', value: element, then: (resolve: (value: unknown) => void) => resolve(element) };
  return {
    $$typeof: Symbol.for('react.lazy'),
    _payload: chunk,
    _init: (payload: typeof chunk) => payload.value,
  } as unknown as ReactNode;
}

describe('Slot (asChild), against @radix-ui/react-slot as the reference', () => {
  it('renders the child element with the props merged as Radix merges them', () => {
    const { radix, own } = both(({ Slot }) => (
      <Slot
        role="status"
        className="kit"
        style={{ color: 'red', margin: 1 }}
        aria-describedby="a b"
        data-kestrel-part="status"
        title="kit"
      >
        <span className="app" style={{ color: 'blue' }} aria-describedby="b c" title="app" id="mine">
          text
        </span>
      </Slot>
    ));
    expect(own).toBe(radix);
    expect(own).toContain('class="kit app"');
    expect(own).toContain('aria-describedby="b c a"');
    expect(own).toContain('title="app"');
  });

  it('puts a Slottable child in place and appends the other children after its own', () => {
    const tree = ({ Slot, Slottable }: Kit) => (
      <Slot role="note" data-kind="length">
        <Slottable>
          <p className="app">
            <b>Note:</b>{' '}
          </p>
        </Slottable>
        Stopped at the length limit
      </Slot>
    );
    const { radix, own } = both(tree);
    expect(own).toBe(radix);
    expect(own).toBe('<p class="app" role="note" data-kind="length"><b>Note:</b> Stopped at the length limit</p>');
  });

  it('slots onto a child a server component handed over lazily, alone or in a Slottable', () => {
    const alone = both(({ Slot }) => (
      <Slot className="kit" data-x="1">
        {flightLazy(<span className="app">hi</span>)}
      </Slot>
    ));
    expect(alone.own).toBe(alone.radix);
    expect(alone.own).toBe('<span class="kit app" data-x="1">hi</span>');
    const inSlottable = both(({ Slot, Slottable }) => (
      <Slot role="status">
        <Slottable>{flightLazy(<p className="app">Note: </p>)}</Slottable>
        Run finished
      </Slot>
    ));
    expect(inSlottable.own).toBe(inSlottable.radix);
    expect(inSlottable.own).toBe('<p class="app" role="status">Note: Run finished</p>');
  });

  it.each(['radix', 'own'] as const)(
    '%s: runs the child handler first, then the slot one, and keeps its result',
    (name) => {
      const { Slot } = kits[name];
      const calls: string[] = [];
      const { getByRole } = render(
        <Slot onClick={() => calls.push('kit')}>
          <button type="button" onClick={() => calls.push('app')}>
            Stop
          </button>
        </Slot>,
      );
      getByRole('button').click();
      expect(calls).toEqual(['app', 'kit']);
    },
  );

  it('gives the node to both refs, and each callback ref cleanup runs once on unmount', () => {
    for (const name of ['radix', 'own'] as const) {
      const { Slot } = kits[name];
      const outer = createRef<HTMLButtonElement>();
      const cleanupCalls = vi.fn();
      const inner: Ref<HTMLButtonElement> = (node) => {
        if (node !== null) return cleanupCalls;
      };
      const { unmount, getByRole } = render(
        <Slot ref={outer}>
          <button type="button" ref={inner}>
            Go
          </button>
        </Slot>,
      );
      expect(outer.current, name).toBe(getByRole('button'));
      unmount();
      expect(outer.current, name).toBeNull();
      expect(cleanupCalls, name).toHaveBeenCalledTimes(1);
    }
  });

  it('keeps the composed ref stable across renders, so a callback ref is not detached and attached again', () => {
    const seen: (HTMLElement | null)[] = [];
    const outer = (node: HTMLElement | null) => {
      seen.push(node);
    };
    const { rerender } = render(
      <Own.Slot ref={outer} title="one">
        <i>x</i>
      </Own.Slot>,
    );
    act(() =>
      rerender(
        <Own.Slot ref={outer} title="two">
          <i>x</i>
        </Own.Slot>,
      ),
    );
    expect(seen).toHaveLength(1);
  });

  it('refuses several elements, as Radix does, instead of dropping all but one', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const { Slot } of Object.values(kits)) {
      expect(() =>
        render(
          <Slot>
            <i>a</i>
            <i>b</i>
          </Slot>,
        ),
      ).toThrow(/single React element child/);
    }
    vi.restoreAllMocks();
  });
});
