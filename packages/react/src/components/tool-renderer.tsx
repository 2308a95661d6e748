'use client';
import { checkSchema, type PayloadIssue, type StandardSchemaV1, type ToolCall } from '@kestrel/core';
import { useMemo, type ReactNode } from 'react';
import { IssueList } from './issue-list.js';
import type { RunLabels } from './labels.js';

/**
 * One tool call as its renderer gets it: the input checked by the renderer's `input` schema, and, once it
 * succeeded, the output checked by its `output` schema. A failed call's output is the tool's error, unchecked.
 */
export type ToolCallView<I = unknown, O = unknown> =
  | {
      readonly callId: string;
      readonly name: string;
      readonly status: 'running';
      readonly input: I;
      readonly output: undefined;
    }
  | {
      readonly callId: string;
      readonly name: string;
      readonly status: 'succeeded';
      readonly input: I;
      readonly output: O;
    }
  | {
      readonly callId: string;
      readonly name: string;
      readonly status: 'failed';
      readonly input: I;
      readonly output: unknown;
    };

/**
 * How one tool's calls are shown. Without a schema the value is passed as received (`unknown`). A value that
 * fails its schema is never passed to `render`: the call is shown by the generic item with a notice naming the
 * issues. What `render` returns is evidence of the agent's work, shown in the activity region under the tool's
 * name, never as the run's answer or payload.
 */
export interface ToolRenderer<I = unknown, O = unknown> {
  readonly input?: StandardSchemaV1<unknown, I>;
  readonly output?: StandardSchemaV1<unknown, O>;
  // Method syntax on purpose: a renderer for a typed input still fits a `ToolRenderers` record.
  render(call: ToolCallView<I, O>): ReactNode;
}

/** Renderers by tool name (the `name` of `tool.started`); a tool not named here gets the generic item. */
export type ToolRenderers = Readonly<Record<string, ToolRenderer>>;

/**
 * Declares a tool renderer with its input and output types inferred from its schemas, so `render` gets them typed.
 *
 * @example
 * const search = toolRenderer({
 *   input: z.object({ query: z.string() }),
 *   output: z.array(z.object({ title: z.string() })),
 *   render: (call) => (call.status === 'succeeded' ? <SearchHits query={call.input.query} hits={call.output} /> : call.input.query),
 * });
 * <RunView run={run} tools={{ search }} />
 */
export function toolRenderer<I = unknown, O = unknown>(renderer: ToolRenderer<I, O>): ToolRenderer<I, O> {
  return renderer;
}

/** The renderer for a tool name: own keys only, so a tool named `constructor` or `__proto__` is just unknown. */
export function rendererFor(renderers: ToolRenderers | undefined, name: string): ToolRenderer | undefined {
  return renderers !== undefined && Object.hasOwn(renderers, name) ? renderers[name] : undefined;
}

/** Which value failed its schema, with the issues; `null` when everything the renderer declared passed. */
interface SchemaFailure {
  readonly value: 'input' | 'output';
  readonly issues: readonly PayloadIssue[];
}

type Checked =
  | { readonly status: 'ok'; readonly view: ToolCallView }
  | { readonly status: 'invalid'; readonly failure: SchemaFailure };

function checkCall(call: ToolCall, renderer: ToolRenderer): Checked {
  const input =
    renderer.input === undefined
      ? ({ status: 'valid', value: call.input } as const)
      : checkSchema(renderer.input, call.input, 'tool input schema');
  if (input.status === 'invalid') return { status: 'invalid', failure: { value: 'input', issues: input.issues } };
  const common = { callId: call.callId, name: call.name, input: input.value };
  switch (call.status) {
    case 'running':
      return { status: 'ok', view: { ...common, status: 'running', output: undefined } };
    case 'failed':
      return { status: 'ok', view: { ...common, status: 'failed', output: call.output } };
    case 'succeeded': {
      const output =
        renderer.output === undefined
          ? ({ status: 'valid', value: call.output } as const)
          : checkSchema(renderer.output, call.output, 'tool output schema');
      if (output.status === 'invalid')
        return { status: 'invalid', failure: { value: 'output', issues: output.issues } };
      return { status: 'ok', view: { ...common, status: 'succeeded', output: output.value } };
    }
    default:
      return call.status satisfies never;
  }
}

/**
 * One tool call in the activity list: its name and status always, then the app's renderer (when one is given for
 * its name and its values pass the schemas) or, when a value fails, a notice with the issues. Exported for tests.
 */
export function ToolCallItem({
  call,
  renderer,
  labels,
}: {
  call: ToolCall;
  renderer: ToolRenderer | undefined;
  labels: RunLabels;
}) {
  const checked = useMemo(() => (renderer === undefined ? null : checkCall(call, renderer)), [call, renderer]);
  return (
    <li data-kestrel-part="tool" data-status={call.status} data-tool-status={call.status} data-tool-name={call.name}>
      <code>{call.name}</code> <span>{labels.toolStatus(call.status)}</span>
      {checked === null ? null : checked.status === 'ok' ? (
        <div data-kestrel-tool-render="">{renderer?.render(checked.view)}</div>
      ) : (
        <div role="note" data-kestrel-part="tool-notice" data-kind={checked.failure.value}>
          <p>{labels.toolSchemaFailed(checked.failure.value)}</p>
          <IssueList issues={checked.failure.issues} />
        </div>
      )}
    </li>
  );
}
