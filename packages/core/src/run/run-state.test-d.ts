import { invoiceSchema, type Invoice } from '@kestrel/testing';
import { describe, expectTypeOf, it } from 'vitest';
import type { Interaction, RunCompletedEvent, RunEvent, RunOutput, RunOutputStatus } from '../protocol/types.js';
import type { PayloadState } from './payload.js';
import { reduceRun } from './reduce-run.js';
import {
  createInitialRunState,
  initialRunState,
  type ReconnectInfo,
  type RunError,
  type RunPhase,
  type RunState,
  type RunStateByPhase,
} from './run-state.js';

declare const state: RunState<Invoice>;
declare const event: RunEvent;

describe('RunState is a union on phase', () => {
  it('gives a settled run its outcome, without null', () => {
    if (state.phase === 'settled') {
      expectTypeOf(state.result).toEqualTypeOf<RunCompletedEvent>();
      expectTypeOf(state.output).toEqualTypeOf<RunOutput>();
      expectTypeOf(state.status).toEqualTypeOf<RunOutputStatus>();
      expectTypeOf(state.payload).toEqualTypeOf<PayloadState<Invoice> | null>();
      expectTypeOf(state.error).toEqualTypeOf<null>();
    }
  });

  it('narrows a settled run by status: only COMPLETED has a payload, and there it always has one', () => {
    if (state.phase === 'settled' && state.status === 'COMPLETED') {
      expectTypeOf(state.payload).toEqualTypeOf<PayloadState<Invoice>>();
      expectTypeOf(state.output.assistantText).toEqualTypeOf<string>();
    }
    if (state.phase === 'settled' && state.status === 'WAITING') {
      expectTypeOf(state.payload).toEqualTypeOf<null>();
      expectTypeOf(state.output.interaction).toEqualTypeOf<Interaction>();
    }
    if (state.phase === 'settled' && state.status === 'FAILED') expectTypeOf(state.output.error.message).toBeString();
  });

  it('gives a failed run its error, and the outcome only as maybe (a protocol error after run.completed)', () => {
    if (state.phase === 'error') {
      expectTypeOf(state.error).toEqualTypeOf<RunError>();
      expectTypeOf(state.output).toEqualTypeOf<RunOutput | null>();
      if (state.result !== null) {
        expectTypeOf(state.output).toEqualTypeOf<RunOutput>();
        expectTypeOf(state.error.kind).toEqualTypeOf<'protocol'>();
      } else expectTypeOf(state.output).toEqualTypeOf<null>();
    }
  });

  it('gives a live run no outcome, and a reconnecting one its reconnect', () => {
    if (state.phase === 'streaming' || state.phase === 'connecting') {
      expectTypeOf(state.output).toEqualTypeOf<null>();
      expectTypeOf(state.result).toEqualTypeOf<null>();
      expectTypeOf(state.reconnect).toEqualTypeOf<null>();
    }
    if (state.phase === 'reconnecting') expectTypeOf(state.reconnect).toEqualTypeOf<ReconnectInfo>();
  });

  it('keeps the wide field types readable without a check', () => {
    expectTypeOf(state.phase).toEqualTypeOf<RunPhase>();
    expectTypeOf(state.output).toEqualTypeOf<RunOutput | null>();
    expectTypeOf(state.error).toEqualTypeOf<RunError | null>();
    expectTypeOf(state.draftText).toEqualTypeOf<string>();
  });

  it('narrows in a switch that must cover every phase', () => {
    const text = (run: RunState): string => {
      switch (run.phase) {
        case 'settled':
          return run.output.assistantText ?? '';
        case 'error':
          return run.error.message;
        case 'idle':
        case 'connecting':
        case 'streaming':
        case 'reconnecting':
        case 'detached':
          return run.draftText;
        default:
          return run satisfies never;
      }
    };
    expectTypeOf(text).returns.toEqualTypeOf<string>();
  });

  it('still folds from the initial states', () => {
    let plain = initialRunState;
    plain = reduceRun(plain, event);
    expectTypeOf(plain).toEqualTypeOf<RunState>();
    let typed = createInitialRunState({ payloadSchema: invoiceSchema });
    typed = reduceRun(typed, event);
    expectTypeOf(typed).toEqualTypeOf<RunState<Invoice>>();
  });

  it('names each phase state', () => {
    expectTypeOf<RunStateByPhase<Invoice>['settled']>().toExtend<RunState<Invoice>>();
    expectTypeOf<RunStateByPhase['settled']['phase']>().toEqualTypeOf<'settled'>();
  });
});
