'use client';
import { isFollowing, type RunActions, type RunSource, type RunState } from '@kestrel/core';
import { useState } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { ActionButton, type ActionButtonProps } from './action-button.js';
import { useRunLabels } from './labels.js';
import { usePartRun } from './run-context.js';

const selectFollowing = (state: RunState) => isFollowing(state.phase);

/** Props of `Run.Cancel`: button attributes, composed with the kit's own (`onClick` runs yours first). */
export interface RunCancelProps extends ActionButtonProps {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource & Pick<RunActions, 'cancel'>;
}

/**
 * The Stop button: shown while the run is connecting, streaming or reconnecting, it calls `run.cancel()`.
 * `data-kestrel-action="cancel"`. Your `onClick` runs first; call `event.preventDefault()` in it to keep the kit
 * from cancelling (e.g. to confirm first). When the cancel request fails (the run goes on), an alert after the
 * button says so (`labels.cancelFailed`) until Stop is pressed again or the run ends.
 *
 * @example
 * <Run.Cancel asChild><MyButton variant="ghost">Stop</MyButton></Run.Cancel>
 */
export function RunCancel({ run: ownRun, labels, ...rest }: RunCancelProps) {
  const run = usePartRun(ownRun, 'Run.Cancel');
  const live = useRunSelector(run, selectFollowing);
  const t = useRunLabels(labels);
  // A Stop that did nothing must not look like one still on its way: the person hears that the run goes on.
  const [failed, setFailed] = useState(false);
  if (!live) {
    // Gone with the run it was about: the next run's Stop starts without it.
    if (failed) setFailed(false);
    return null;
  }
  const stop = () => {
    setFailed(false);
    run.cancel().catch(() => setFailed(true));
  };
  return (
    <>
      <ActionButton {...rest} action="cancel" label={t.cancel} act={stop} />
      {failed ? (
        <p role="alert" data-kestrel-note="">
          {t.cancelFailed}
        </p>
      ) : null}
    </>
  );
}
