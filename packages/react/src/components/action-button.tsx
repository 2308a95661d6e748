'use client';
import { Slot } from './slot.js';
import type { ButtonHTMLAttributes, MouseEvent, ReactNode, Ref } from 'react';
import { useFocusHome } from './focus-home.js';
import type { KestrelLabels } from './labels.js';
import { useOwnElement } from './use-own-element.js';

/**
 * What every action button part (`Run.Cancel`, `Run.Retry`, `Run.Copy`, `Session.JumpToLatest`) takes besides its
 * run.
 */
export interface ActionButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  readonly labels?: Partial<KestrelLabels>;
  /**
   * Render your own button element (its children are its label); the kit's props and handler are merged onto it,
   * `type="button"` included unless your element sets its own `type`.
   */
  readonly asChild?: boolean;
  /** The label, the kit's by default. With `asChild`, the one element to render. */
  readonly children?: ReactNode;
  readonly ref?: Ref<HTMLButtonElement>;
}

/*
 * Radix's composeEventHandlers (@radix-ui/primitive), same contract: the app's handler first, then the kit's unless
 * the app called preventDefault(). Written here because that package's module-level `__name(...)` calls keep its
 * other helpers in every bundle (about 1 kB minified, with <RunView> close to its size ceiling).
 */
function composeEventHandlers<E extends { readonly defaultPrevented: boolean }>(
  theirs: ((event: E) => void) | undefined,
  ours: (event: E) => void,
) {
  return (event: E) => {
    theirs?.(event);
    if (!event.defaultPrevented) ours(event);
  };
}

interface Props extends Omit<ActionButtonProps, 'labels'> {
  readonly action: string;
  readonly label: string;
  readonly act: (event: MouseEvent<HTMLButtonElement>) => void;
}

/** A kit action as a button, or (asChild) on the app's own element: the app's `onClick` runs first and can `preventDefault()` the kit's. */
export function ActionButton({ action, label, act, asChild = false, children, onClick, ref, ...rest }: Props) {
  const [own, setRef] = useOwnElement(ref);
  useFocusHome(own);
  const Comp = asChild ? Slot : 'button';
  return (
    <Comp
      // As Radix's buttons do, also onto an asChild element (its own `type` wins): a `<button>` in a form must not
      // submit it when the kit's action is what was meant.
      type="button"
      {...rest}
      ref={setRef}
      data-kestrel-action={action}
      onClick={composeEventHandlers(onClick, act)}
    >
      {children ?? label}
    </Comp>
  );
}
