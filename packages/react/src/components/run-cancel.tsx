'use client';
import { isFollowing, type RunActions, type RunSource, type RunState } from '@kestrel/core';
import { useRunSelector } from '../use-run-selector.js';
import { ActionButton, type ActionButtonProps } from './action-button.js';
import { useActionFailure } from './action-failure.js';
import { useRunLabels } from './labels.js';
import { usePartRun } from './run-context.js';

/** The followed run's id (`null` before the server named it); `undefined` when no run is followed. */
const selectFollowedRun = (state: RunState) => (isFollowing(state.phase) ? state.runId : undefined);

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
  const followed = useRunSelector(run, selectFollowedRun);
  const t = useRunLabels(labels);
  // A failed Stop is about the run it was pressed for, never the next one's.
  const [failed, act] = useActionFailure(followed);
  if (followed === undefined) return null;
  return (
    <>
      <ActionButton
        {...rest}
        action="cancel"
        label={t.cancel}
        act={() =>
          act(
            () => run.cancel(),
            () => run.getState().runId,
          )
        }
      />
      {failed ? (
        <p role="alert" data-kestrel-note="">
          {t.cancelFailed}
        </p>
      ) : null}
    </>
  );
}
