'use client';
import type { PayloadState, RunSource, RunState } from '@kestrel/core';
import { useEffect, useLayoutEffect, type HTMLAttributes, type ReactNode, type Ref } from 'react';
import { markShown } from './dropped-parts.js';
import { useRunSelector } from '../use-run-selector.js';
import { IssueList } from './issue-list.js';
import { useRunLabels, type KestrelLabels } from './labels.js';
import { usePartRun, useRootRenderPayload } from './run-context.js';
import { shallowEqual } from './shallow-equal.js';

/** What `renderPayload` gets besides the payload. */
export interface PayloadRenderContext {
  readonly runId: string | null;
  /** The run's finish reason: `null` when no root turn ended in its interval, `undefined` when not known here. */
  readonly finishReason: string | null | undefined;
}

/** The app's own rendering of its structured result. The kit never turns the payload into text by itself. */
export type RenderPayload<P> = (payload: P, context: PayloadRenderContext) => ReactNode;

interface PayloadSlice<P> {
  readonly payload: PayloadState<P> | null;
  readonly runId: string | null;
  readonly finishReason: string | null | undefined;
}

function selectPayload<P>(state: RunState<P>): PayloadSlice<P> {
  return {
    payload: state.phase === 'settled' ? state.payload : null,
    runId: state.runId,
    finishReason: state.finishReason,
  };
}

// The payload of an outcome that a protocol error followed (phase `error`, output kept; `null` there without one).
function selectReceivedPayload<P>(state: RunState<P>): PayloadSlice<P> {
  return {
    payload: state.phase === 'error' ? state.payload : null,
    runId: state.runId,
    finishReason: state.finishReason,
  };
}

let warned = new Set<string>();

/**
 * Warns once per run that a structured result is not displayed. Call it only behind
 * `process.env.NODE_ENV !== 'production'` written at the call site, which bundlers fold so that production builds
 * carry neither the call nor its message (see the core's warnOnce). Exported for tests only.
 */
export function warnUnrendered(runId: string | null): void {
  const key = runId ?? '';
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(
    `[kestrel] Run ${runId ?? '(unknown)'} returned a structured payload (finalizedPayload), but no renderPayload was given, so it is not displayed. Pass renderPayload to <RunView> or <PayloadPanel>.`,
  );
}

/** Forgets which runs were warned about (tests). */
export function resetPayloadWarnings(): void {
  warned = new Set();
}

/** Props of `PayloadPanel`; `P` is the payload type your `payloadSchema` gives, so `renderPayload` gets it typed. */
export interface PayloadPanelProps<P> extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource<P>;
  /** Renders the valid payload (inside `Run.Root`, the root's by default). Without it, a notice says a structured result exists and is not displayed. */
  readonly renderPayload?: RenderPayload<P>;
  readonly labels?: Partial<KestrelLabels>;
  /** Show the payload of an outcome received before a protocol error (used by `ReceivedOutcome`), not a settled one. */
  readonly receivedBeforeError?: boolean;
  readonly ref?: Ref<HTMLElement>;
}

/**
 * The structured result of a COMPLETED run, as the application renders it, in a group labelled as application
 * content (`data-authored="app"`) and kept apart from the assistant's text. An invalid payload is shown as invalid
 * with its issues, and a payload with no renderer by a visible notice; both are the kit's words
 * (`data-authored="kit"`), not a region of app content. Renders nothing when there is no payload.
 *
 * Exported as `Run.Payload` too.
 *
 * @example
 * <PayloadPanel run={run} renderPayload={(invoice) => <InvoiceTable invoice={invoice} />} />
 */
export function PayloadPanel<P>({
  run: ownRun,
  renderPayload: ownRender,
  labels,
  receivedBeforeError = false,
  className,
  ref,
  ...rest
}: PayloadPanelProps<P>) {
  // The root checked its renderer against its run's payload type; a part's own props are typed together here.
  const run = usePartRun(ownRun, 'Run.Payload') as RunSource<P>;
  const rootRender = useRootRenderPayload() as RenderPayload<P> | undefined;
  const renderPayload = ownRender ?? (ownRun === undefined ? rootRender : undefined);
  const { payload, runId, finishReason } = useRunSelector(
    run,
    receivedBeforeError ? selectReceivedPayload<P> : selectPayload<P>,
    shallowEqual,
  );
  const t = useRunLabels(labels);
  if (process.env.NODE_ENV !== 'production') {
    // Development only, and so the same in every render of a build: bundlers drop the hook and its warning.
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useEffect(() => {
      if (payload?.status === 'valid' && renderPayload === undefined) warnUnrendered(runId);
    }, [payload?.status, renderPayload, runId]);
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useLayoutEffect(() => markShown(run, 'payload'), [run]);
  }
  if (payload === null || payload.status === 'absent') return null;
  // Section or div, the root is an HTMLElement either way.
  const common = {
    ...rest,
    ref: ref as Ref<HTMLElement & HTMLDivElement>,
    className,
    'data-kestrel-part': 'payload',
    'data-payload': payload.status,
  } as const;
  if (payload.status === 'invalid') {
    return (
      <div {...common} data-authored="kit">
        <p>{t.payloadInvalid}</p>
        <IssueList issues={payload.issues} />
      </div>
    );
  }
  if (renderPayload === undefined) {
    return (
      <div {...common} data-authored="kit" data-payload="unrendered">
        <p>{t.payloadUnrendered}</p>
      </div>
    );
  }
  return (
    // A labelled group, not a landmark: a conversation shows many payloads, and landmarks of one name repeated say
    // nothing about which is which (axe: landmark-unique).
    <section {...common} role={rest.role ?? 'group'} aria-label={t.payloadRegion} data-authored="app">
      {renderPayload(payload.value, { runId, finishReason })}
    </section>
  );
}
