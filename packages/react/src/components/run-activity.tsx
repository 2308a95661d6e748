'use client';
import type { AppendLog, RunLog, RunProgress, RunSource, RunState, ToolCall } from '@kestrel/core';
import { useId, useState, type HTMLAttributes, type Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { useKestrelLabels, type KestrelLabels } from './labels.js';
import { shallowEqual } from './shallow-equal.js';

interface ActivitySlice {
  readonly live: boolean;
  /** There is reasoning or a log line, shown or not. */
  readonly notes: boolean;
  readonly reasoning: string;
  readonly tools: readonly ToolCall[];
  readonly progress: RunProgress | null;
  readonly logs: AppendLog<RunLog> | null;
}

// Text deltas are not part of this slice, so the activity panel does not re-render while the answer streams.
export function selectActivity(state: RunState): ActivitySlice {
  return {
    live: state.phase === 'streaming' || state.phase === 'reconnecting' || state.phase === 'connecting',
    notes: state.reasoning !== '' || state.logs.length > 0,
    reasoning: state.reasoning,
    tools: state.tools,
    progress: state.progress,
    logs: state.logs,
  };
}

// Collapsed, only the summary shows: reasoning and log growth is not read, so it does not re-render the panel.
function selectSummary(state: RunState): ActivitySlice {
  return { ...selectActivity(state), reasoning: '', logs: null };
}

/** Props of `RunActivity`: the run whose tools, progress, reasoning and logs to list, plus `div` attributes. */
export interface RunActivityProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  readonly run: RunSource;
  /** Open on first render. Collapsed by default. */
  readonly defaultOpen?: boolean;
  readonly labels?: Partial<KestrelLabels>;
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * What the agent did on the way: reasoning, tool calls with their status, progress and logs. Collapsed by
 * default behind a disclosure button; renders nothing when there was no activity.
 *
 * @example
 * <RunActivity run={run} defaultOpen />
 */
export function RunActivity({ run, defaultOpen = false, labels, className, ref, ...rest }: RunActivityProps) {
  const [open, setOpen] = useState(defaultOpen);
  const { live, notes, reasoning, tools, progress, logs } = useRunSelector(run, open ? selectActivity : selectSummary, shallowEqual);
  const t = useKestrelLabels(labels);
  const panelId = useId();
  if (!notes && tools.length === 0 && progress === null) return null;
  const running = tools.filter((tool) => tool.status === 'running').length;
  const summary = [
    tools.length > 0 ? t.activityToolCount(tools.length) : null,
    progress === null ? null : progress.fraction === null ? progress.label : `${progress.label} ${Math.round(progress.fraction * 100)}%`,
  ]
    .filter((part) => part !== null)
    .join(' · ');
  return (
    <div
      {...rest}
      ref={ref}
      className={className}
      data-kestrel-part="activity"
      data-state={open ? 'expanded' : 'collapsed'}
      data-live={live ? 'true' : 'false'}
      data-running-tools={running}
    >
      <button type="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((value) => !value)}>
        {t.activity}
        {summary === '' ? null : <span data-kestrel-summary="">{` (${summary})`}</span>}
      </button>
      <div id={panelId} hidden={!open}>
        {open ? (
          <>
        {progress === null ? null : (
          <p data-kestrel-progress="">
            <span>{`${t.activityProgress}: ${progress.label}`}</span>{' '}
            {progress.fraction === null ? null : <progress aria-label={progress.label} max={1} value={progress.fraction} />}
          </p>
        )}
        {reasoning === '' ? null : (
          <div data-kestrel-reasoning="">
            <p data-kestrel-heading="">{t.activityReasoning}</p>
            <p>{reasoning}</p>
          </div>
        )}
        {tools.length === 0 ? null : (
          <div>
            <p data-kestrel-heading="">{t.activityTools}</p>
            <ul>
              {tools.map((tool) => (
                <li key={tool.callId} data-tool-status={tool.status}>
                  <code>{tool.name}</code> <span>{t.toolStatus(tool.status)}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {logs === null || logs.length === 0 ? null : (
          <div>
            <p data-kestrel-heading="">{t.activityLogs}</p>
            <ul>
              {logs.toArray().map((log) => (
                <li key={log.seq} data-log-level={log.level}>
                  <span>{log.level}</span> {log.message}
                </li>
              ))}
            </ul>
          </div>
        )}
          </>
        ) : null}
      </div>
    </div>
  );
}
