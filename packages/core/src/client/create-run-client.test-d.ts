import { invoiceSchema, type Invoice } from '@kestrel/testing';
import { describe, expectTypeOf, it } from 'vitest';
import type { RunCompletedEvent } from '../protocol/types.js';
import type { RunError } from '../run/run-state.js';
import { createRunClient } from './create-run-client.js';
import type { RunClientError, RunClientErrorKind } from './run-client-error.js';
import type { KestrelHeaders } from '../protocol/kestrel-headers.js';
import type { RunHandle } from './types.js';

const client = createRunClient({ baseUrl: 'http://127.0.0.1:1' });

describe('run client types', () => {
  it('types the payload from the app schema, across respond and resume', () => {
    const handle = client.start({ input: 'x', payloadSchema: invoiceSchema });
    expectTypeOf(handle).toEqualTypeOf<RunHandle<Invoice>>();
    const payload = handle.getState().payload;
    if (payload?.status === 'valid') expectTypeOf(payload.value).toEqualTypeOf<Invoice>();
    expectTypeOf(handle.respond).returns.resolves.toEqualTypeOf<RunHandle<Invoice>>();
    expectTypeOf(client.resume({ runId: 'r', payloadSchema: invoiceSchema })).toEqualTypeOf<RunHandle<Invoice>>();
    expectTypeOf(client.start({ input: 'x' })).toEqualTypeOf<RunHandle<unknown>>();
  });

  it('resolves results with the terminal event and narrows outputs by status', () => {
    expectTypeOf(client.run({ input: 'x' })).resolves.toEqualTypeOf<RunCompletedEvent>();
    expectTypeOf(client.fetchResult('r')).resolves.toEqualTypeOf<RunCompletedEvent | null>();
    const event = {} as RunCompletedEvent;
    if (event.output.status === 'WAITING') expectTypeOf(event.output.interaction.prompt).toEqualTypeOf<string>();
    if (event.output.status === 'FAILED') expectTypeOf(event.output.error.code).toEqualTypeOf<string>();
  });

  it('gives errors a closed set of kinds with the reducer error as detail', () => {
    expectTypeOf<RunClientErrorKind>().toEqualTypeOf<RunError['kind'] | 'detached'>();
    expectTypeOf<RunClientError['detail']>().toEqualTypeOf<RunError | null>();
    expectTypeOf<RunClientError['status']>().toEqualTypeOf<number | null>();
  });
});

describe('request headers', () => {
  it('takes the kit’s own header type, which every HeadersInit shape and a Map fit', () => {
    expectTypeOf<{ authorization: string }>().toExtend<KestrelHeaders>();
    expectTypeOf<[string, string][]>().toExtend<KestrelHeaders>();
    expectTypeOf<Headers>().toExtend<KestrelHeaders>();
    expectTypeOf<Map<string, string>>().toExtend<KestrelHeaders>();
    expectTypeOf<{ authorization: number }>().not.toExtend<KestrelHeaders>();
    createRunClient({ baseUrl: '/', headers: async () => new Map([['authorization', 'Bearer t']]) });
  });
});
