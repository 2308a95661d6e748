'use client';
import type { ReconnectInfo, RunActions, RunSource, RunState } from '@kestrel/core';
import type { HTMLAttributes, Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { useRunLabels, type KestrelLabels } from './labels.js';
import { usePartRun } from './run-context.js';
import { shallowEqual } from './shallow-equal.js';

/** The connection's state worth showing; `null` when connected (or settled). */
export type ConnectionState = 'connecting' | 'reconnecting' | 'detached';

interface ConnectionSlice {
  readonly state: ConnectionState | null;
  readonly reconnect: ReconnectInfo | null;
  readonly runId: string | null;
}

const connected: ConnectionSlice = { state: null, reconnect: null, runId: null };

function selectConnection(state: RunState): ConnectionSlice {
  switch (state.phase) {
    case 'connecting':
      return { state: 'connecting', reconnect: null, runId: null };
    case 'reconnecting':
      return { state: 'reconnecting', reconnect: state.reconnect, runId: null };
    case 'detached':
      return { state: 'detached', reconnect: null, runId: state.runId };
    case 'idle':
    case 'streaming':
    case 'settled':
    case 'error':
      return connected;
    default:
      return state satisfies never;
  }
}

/** Props of `Run.Connection`: the run whose connection to show, plus `div` attributes. */
export interface RunConnectionProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource & Pick<RunActions, 'resume'>;
  readonly labels?: Partial<KestrelLabels>;
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * The connection, shown as what it is and never as an outcome: "Connecting…", "Connection interrupted (reason).
 * Reconnecting, attempt n…", or, once the view stopped following, "No longer following this run" with **Follow
 * again** (`data-kestrel-action="follow-again"`), which resumes the run and replays it from its first event.
 * `data-kestrel-part="connection"` with `data-state`. Renders nothing while connected.
 *
 * @example
 * <Run.Connection />
 */
export function RunConnection({ run: ownRun, labels, className, ref, ...rest }: RunConnectionProps) {
  const run = usePartRun(ownRun, 'Run.Connection');
  const { state, reconnect, runId } = useRunSelector(run, selectConnection, shallowEqual);
  const t = useRunLabels(labels);
  if (state === null) return null;
  const common = { ...rest, ref, className, 'data-kestrel-part': 'connection', 'data-state': state } as const;
  switch (state) {
    case 'connecting':
      return (
        <div {...common}>
          <p>{t.connecting}</p>
        </div>
      );
    case 'reconnecting':
      return (
        <div {...common}>
          <p>{reconnect === null ? null : t.reconnecting(reconnect.attempt, reconnect.reason)}</p>
        </div>
      );
    case 'detached':
      return (
        <div {...common}>
          <p>{t.detached}</p>
          {runId === null ? null : (
            // Replayed whole, as retry does: resuming after lastSeq would start a fresh state mid-sentence.
            <button type="button" data-kestrel-action="follow-again" onClick={() => run.resume(runId)}>
              {t.followAgain}
            </button>
          )}
        </div>
      );
    default:
      return state satisfies never;
  }
}
