'use client';
import {
  isFollowing,
  type AppendLog,
  type RunLog,
  type RunProgress,
  type RunSource,
  type RunState,
  type ToolCall,
} from '@kestrel/core';
import { useId, useState, type HTMLAttributes, type Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { useRunLabels, type KestrelLabels } from './labels.js';
import { usePartRun, useRootTools } from './run-context.js';
import { shallowEqual } from './shallow-equal.js';
import { rendererFor, ToolCallItem, type ToolRenderers } from './tool-renderer.js';

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
    live: isFollowing(state.phase),
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
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource;
  /** Open on first render (uncontrolled). Collapsed by default. */
  readonly defaultOpen?: boolean;
  /** Whether it is open (controlled): pass it with `onOpenChange`. */
  readonly open?: boolean;
  /** Called with the new open state when the disclosure button is pressed. */
  readonly onOpenChange?: (open: boolean) => void;
  /** Renderers by tool name (inside `Run.Root`, the root's by default); other tools get the generic item. */
  readonly tools?: ToolRenderers;
  readonly labels?: Partial<KestrelLabels>;
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * What the agent did on the way: reasoning, tool calls with their status, progress and logs. Collapsed by
 * default behind a disclosure button (`data-state="expanded" | "collapsed"`); open it with `defaultOpen`, or control
 * it with `open` and `onOpenChange`. Each tool call is listed under its name and status, rendered by its
 * renderer in `tools` when one is given: evidence of the work, inside this region, never the run's answer.
 * Renders nothing when there was no activity. Exported as `Run.Activity` too.
 *
 * @example
 * <RunActivity run={run} defaultOpen />
 */
export function RunActivity({
  run: ownRun,
  defaultOpen = false,
  open: openProp,
  onOpenChange,
  tools: ownTools,
  labels,
  className,
  ref,
  ...rest
}: RunActivityProps) {
  const run = usePartRun(ownRun, 'Run.Activity');
  const rootTools = useRootTools();
  const renderers = ownTools ?? (ownRun === undefined ? rootTools : undefined);
  const [openState, setOpenState] = useState(defaultOpen);
  const open = openProp ?? openState;
  const toggle = () => {
    if (openProp === undefined) setOpenState(!open);
    onOpenChange?.(!open);
  };
  const { live, notes, reasoning, tools, progress, logs } = useRunSelector(
    run,
    open ? selectActivity : selectSummary,
    shallowEqual,
  );
  const t = useRunLabels(labels);
  const panelId = useId();
  if (!notes && tools.length === 0 && progress === null) return null;
  const running = tools.filter((tool) => tool.status === 'running').length;
  const summary = [
    tools.length > 0 ? t.activityToolCount(tools.length) : null,
    // Progress is news only while the run moves: a settled run's last "Extracting fields 80%" is not its state.
    progress === null || !live
      ? null
      : progress.fraction === null
        ? progress.label
        : `${progress.label} ${Math.round(progress.fraction * 100)}%`,
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
      <button type="button" aria-expanded={open} aria-controls={panelId} onClick={toggle}>
        {t.activity}
        {summary === '' ? null : <span data-kestrel-summary="">{` (${summary})`}</span>}
      </button>
      <div id={panelId} hidden={!open}>
        {open ? (
          <>
            {progress === null ? null : live ? (
              <p data-kestrel-progress="">
                <span>{`${t.activityProgress}: ${progress.label}`}</span>{' '}
                {progress.fraction === null ? null : (
                  <progress aria-label={progress.label} max={1} value={progress.fraction} />
                )}
              </p>
            ) : (
              // A run no longer followed is not at 80%: its last progress is a step it reached, without a bar.
              <p data-kestrel-progress="ended">{`${t.activityLastStep}: ${progress.label}`}</p>
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
                    <ToolCallItem
                      key={tool.callId}
                      call={tool}
                      renderer={rendererFor(renderers, tool.name)}
                      labels={t}
                    />
                  ))}
                </ul>
              </div>
            )}
            {logs === null || logs.length === 0 ? null : (
              <div>
                <p data-kestrel-heading="">{t.activityLogs}</p>
                <ul>
                  {logs.toArray().map((log) => (
                    <li key={log.seq} data-kestrel-part="log" data-kind={log.level} data-log-level={log.level}>
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
