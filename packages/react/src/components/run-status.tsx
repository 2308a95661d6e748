'use client';
import type { RunSource, RunState } from '@kestrel/core';
import type { HTMLAttributes, Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { useKestrelLabels, type KestrelLabels } from './labels.js';

/** The only moments worth announcing: not every delta. */
export type RunAnnouncement = 'started' | 'waiting' | 'finished' | 'failed' | 'none';

export function selectAnnouncement(state: RunState): RunAnnouncement {
  switch (state.phase) {
    case 'idle':
      return 'none';
    case 'connecting':
    case 'streaming':
    case 'reconnecting':
    case 'detached':
      return 'started';
    case 'error':
      return 'failed';
    case 'settled':
      return state.status === 'WAITING' ? 'waiting' : state.status === 'FAILED' ? 'failed' : 'finished';
    default:
      return state.phase satisfies never;
  }
}

const texts: Record<Exclude<RunAnnouncement, 'none'>, keyof KestrelLabels> = {
  started: 'statusStarted',
  waiting: 'statusWaiting',
  finished: 'statusFinished',
  failed: 'statusFailed',
};

export interface RunStatusProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  readonly run: RunSource;
  readonly labels?: Partial<KestrelLabels>;
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * One polite live region that announces only: started, waiting for your answer, finished, failed. It is always in
 * the document (so screen readers pick up its changes) and re-renders only when the announcement changes.
 *
 * @example
 * <RunStatus run={run} className="sr-only" />
 */
export function RunStatus({ run, labels, className, ref, ...rest }: RunStatusProps) {
  const announcement = useRunSelector(run, selectAnnouncement);
  const text = useKestrelLabels(labels);
  return (
    <div
      {...rest}
      ref={ref}
      role="status"
      aria-live="polite"
      aria-atomic="true"
      className={className}
      data-kestrel-part="status"
      data-announcement={announcement}
    >
      {announcement === 'none' ? '' : (text[texts[announcement]] as string)}
    </div>
  );
}
