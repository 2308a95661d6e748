'use client';
import {
  Children,
  cloneElement,
  Fragment,
  isValidElement,
  use,
  useCallback,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';
import { assignRef } from './use-own-element.js';

/*
 * Radix's Slot and Slottable (@radix-ui/react-slot 1.5.0), what `asChild` needs, same contract: the one child element
 * is rendered with the part's props merged in (the child's handler runs first, then the part's; classNames joined;
 * styles merged, the child's winning; aria-describedby ids joined; any other prop the child's), and both refs get
 * the node. Written here because that package and its compose-refs helper are 3.2 kB minified in every bundle with
 * <RunView>, which was at its size ceiling: this file took <RunView> from 27,718 to 27,024 bytes gz (`pnpm run
 * size`). What it drops is `Slottable`'s render-prop form, which the kit does not use. A child that a server component hands over as a lazy
 * reference (React Flight) is unwrapped with `use`, as Radix does.
 * slot.test.tsx renders the same trees with Radix's Slot, kept as a dev dependency, as the reference.
 */

type Props = Record<string, unknown>;
type Handler = (...args: unknown[]) => unknown;

/** Inside a `Slot`, the element to render as; the Slot's other children come after that element's own. */
export function Slottable({ children }: { readonly children?: ReactNode }) {
  return children;
}

function joinIds(...values: unknown[]): string | undefined {
  const ids = new Set(values.flatMap((value) => (typeof value === 'string' ? value.trim().split(/\s+/) : [])));
  ids.delete('');
  return ids.size > 0 ? [...ids].join(' ') : undefined;
}

function mergeProps(ours: Props, theirs: Props): Props {
  const merged = { ...ours, ...theirs };
  for (const name in theirs) {
    const mine = ours[name];
    const their = theirs[name];
    if (/^on[A-Z]/.test(name)) {
      if (mine && their) {
        merged[name] = (...args: unknown[]) => {
          const result = (their as Handler)(...args);
          (mine as Handler)(...args);
          return result;
        };
      } else if (mine) merged[name] = mine;
    } else if (name === 'style') merged[name] = { ...(mine as object), ...(their as object) };
    else if (name === 'className') merged[name] = [mine, their].filter(Boolean).join(' ');
    else if (name === 'aria-describedby') merged[name] = joinIds(their, mine);
  }
  return merged;
}

const LAZY = Symbol.for('react.lazy');

/** A child React Flight hands over lazily (an async server component, an outlined element), resolved with `use`. */
function useUnwrapped(node: ReactNode): ReactNode {
  let value: unknown = node;
  while (
    typeof value === 'object' &&
    value !== null &&
    (value as { $$typeof?: unknown }).$$typeof === LAZY &&
    typeof (value as { _payload?: { then?: unknown } })._payload?.then === 'function'
  )
    value = use((value as { _payload: PromiseLike<unknown> })._payload);
  return value as ReactNode;
}

/** The element a Slot renders as: its one child, or the one in its `Slottable` with the Slot's other children added. */
function useSlotted(node: ReactNode): ReactElement<Props> | null {
  const children = useUnwrapped(node);
  let slottable: ReactNode = undefined;
  let at = -1;
  const rest: ReactNode[] = [];
  Children.forEach(children, (child) => {
    if (isValidElement<Props>(child) && child.type === Slottable) {
      slottable = child.props.children as ReactNode;
      at = rest.length;
    }
    rest.push(child);
  });
  const inner = useUnwrapped(slottable);
  if (at >= 0) {
    if (!isValidElement<Props>(inner)) return null;
    rest[at] = inner.props.children as ReactNode;
    return cloneElement(inner, undefined, rest);
  }
  return Children.count(children) === 1 && isValidElement<Props>(children) ? children : null;
}

// The child's ref is read as a value to compose, never its `current` (the React Compiler's lint cannot tell that),
// and the kit does not use the React Compiler.
/* eslint-disable react-hooks/refs */
/** Renders its one child element (or the one in its `Slottable`) with its own props and ref merged in: `asChild`. */
export function Slot({
  children,
  ref,
  ...props
}: Props & { readonly children?: ReactNode; readonly ref?: Ref<unknown> }) {
  const target = useSlotted(children);
  const theirs = target?.props.ref as Ref<unknown> | undefined;
  const both = useCallback(
    (node: unknown) => {
      const refs = [ref, theirs];
      const cleanups = refs.map((each) => assignRef(each, node));
      if (cleanups.some((cleanup) => typeof cleanup === 'function'))
        return () =>
          cleanups.forEach((cleanup, index) =>
            typeof cleanup === 'function' ? cleanup() : assignRef(refs[index], null),
          );
    },
    [ref, theirs],
  );
  if (target === null) {
    if (children || children === 0) throw new Error('asChild: expected a single React element child');
    return children;
  }
  return cloneElement(target, {
    ...mergeProps(props, target.props),
    ...(target.type === Fragment ? {} : { ref: ref ? both : theirs }),
  });
}
/* eslint-enable react-hooks/refs */
