import type {
  JsonRunOptions,
  PayloadState,
  RunActions,
  RunClient,
  RunCompletedEvent,
  RunError,
  RunOutput,
  RunPhase,
} from '@kestrel/core';
import { invoiceSchema, type Invoice } from '@kestrel/testing';
import { useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { kestrelKeys, runMutationOptions, runResultQueryOptions } from './query/index.js';
import type { RunBinding } from './types.js';
import { useRun } from './use-run.js';
import { useRunBinding, type UseRunOptions } from './use-run-binding.js';
import { useRunSelector } from './use-run-selector.js';

declare const client: RunClient;

describe('useRun types', () => {
  it('types payload.value from the payload schema', () => {
    const run = useRun({ payloadSchema: invoiceSchema });
    expectTypeOf(run.state.payload).toEqualTypeOf<PayloadState<Invoice> | null>();
    if (run.state.payload?.status === 'valid') {
      expectTypeOf(run.state.payload.value).toEqualTypeOf<Invoice>();
      expectTypeOf(run.state.payload.value.total).toBeNumber();
    }
  });

  it('narrows run.state by phase: a settled run has its output, a failed one its error', () => {
    const run = useRun({ payloadSchema: invoiceSchema });
    const { state } = run;
    if (state.phase === 'settled') {
      expectTypeOf(state.output).toEqualTypeOf<RunOutput>();
      expectTypeOf(state.result).toEqualTypeOf<RunCompletedEvent>();
    }
    if (state.phase === 'error') expectTypeOf(state.error).toEqualTypeOf<RunError>();
    if (state.phase === 'streaming') expectTypeOf(state.output).toBeNull();
  });

  it('uses the schema output type, after transforms', () => {
    const schema = z.object({ total: z.string().transform(Number) });
    const run = useRun({ payloadSchema: schema });
    if (run.state.payload?.status === 'valid') expectTypeOf(run.state.payload.value).toEqualTypeOf<{ total: number }>();
  });

  it('leaves the payload unknown without a schema', () => {
    const run = useRun();
    if (run.state.payload?.status === 'valid') expectTypeOf(run.state.payload.value).toBeUnknown();
  });

  it('returns the binding and stable actions', () => {
    const run = useRun({ payloadSchema: invoiceSchema });
    expectTypeOf(run).toExtend<RunBinding<Invoice>>();
    expectTypeOf(run).toExtend<RunActions<Invoice>>();
    expectTypeOf(run.respond).returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf(run.cancel).returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf(useRunBinding({ payloadSchema: invoiceSchema })).toEqualTypeOf<RunBinding<Invoice>>();
  });

  it('types the callbacks', () => {
    expectTypeOf<UseRunOptions['onSettled']>().toEqualTypeOf<((event: RunCompletedEvent) => void) | undefined>();
    expectTypeOf<UseRunOptions['onError']>().toEqualTypeOf<((error: RunError) => void) | undefined>();
    // @ts-expect-error a schema of the wrong payload type is refused
    useRun<{ total: string }>({ payloadSchema: invoiceSchema });
  });

  it('infers selector results', () => {
    const run = useRunBinding({ payloadSchema: invoiceSchema });
    expectTypeOf(useRunSelector(run, (state) => state.phase)).toEqualTypeOf<RunPhase>();
    const total = useRunSelector(run, (state) =>
      state.payload?.status === 'valid' ? state.payload.value.total : null,
    );
    expectTypeOf(total).toEqualTypeOf<number | null>();
  });
});

describe('@kestrel/react/query types', () => {
  it('types query and mutation data as the terminal event', () => {
    expectTypeOf(useQuery(runResultQueryOptions(client, 'run_1')).data).toEqualTypeOf<
      RunCompletedEvent | null | undefined
    >();
    expectTypeOf(
      useSuspenseQuery(runResultQueryOptions(client, 'run_1')).data,
    ).toEqualTypeOf<RunCompletedEvent | null>();
    const mutation = useMutation(runMutationOptions(client));
    expectTypeOf(mutation.data).toEqualTypeOf<RunCompletedEvent | undefined>();
    expectTypeOf(mutation.mutate).parameter(0).toEqualTypeOf<string | JsonRunOptions>();
    expectTypeOf(kestrelKeys.result('run_1')).toEqualTypeOf<readonly ['kestrel', 'result', string]>();
  });
});
