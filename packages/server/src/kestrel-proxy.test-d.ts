import type { InteractionAnswer, KestrelRoute, StartRunBody } from '@kestrel/core';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createKestrelProxy,
  errorResponse,
  type FetchHandler,
  type KestrelProxyOptions,
  type StartedRun,
} from './index.js';

const upstream = 'http://kestrel.internal';

describe('@kestrel/server proxy types', () => {
  it('authorize may answer sync or async, with a Response or nothing', () => {
    createKestrelProxy({ upstream, authorize: () => undefined });
    createKestrelProxy({
      upstream,
      authorize: (_request, route) => (route.kind === 'cancel' ? errorResponse(403, 'no', 'no') : undefined),
    });
    createKestrelProxy({
      upstream,
      authorize: async (request) => {
        if (request.headers.get('cookie') === null) return errorResponse(401, 'unauthorized', 'Sign in');
        return undefined;
      },
    });
    // @ts-expect-error: a boolean is not a verdict; return a Response to refuse
    createKestrelProxy({ upstream, authorize: () => false });
  });

  it('hooks see the parsed route and body, typed', () => {
    expectTypeOf<Parameters<NonNullable<KestrelProxyOptions['authorize']>>[1]>().toEqualTypeOf<KestrelRoute>();
    expectTypeOf<Parameters<NonNullable<KestrelProxyOptions['prepareBody']>>[0]>().toEqualTypeOf<
      StartRunBody | InteractionAnswer
    >();
    expectTypeOf<Parameters<NonNullable<KestrelProxyOptions['prepareBody']>>[1]['route']['kind']>().toEqualTypeOf<
      'start-run' | 'answer'
    >();
    expectTypeOf<Parameters<NonNullable<KestrelProxyOptions['onRunStarted']>>[0]>().toEqualTypeOf<StartedRun>();
    createKestrelProxy({
      upstream,
      prepareBody: (body, { route }) => (route.kind === 'start-run' ? { ...body, metadata: { tenant: 't_1' } } : body),
    });
  });

  it('getHeaders may return headers in any HeadersInit shape, or a Response', () => {
    createKestrelProxy({ upstream, getHeaders: () => ({ authorization: 'Bearer k' }) });
    createKestrelProxy({ upstream, getHeaders: async () => [['authorization', 'Bearer k']] });
    createKestrelProxy({ upstream, getHeaders: () => new Response(null, { status: 401 }) });
  });

  it('is a web-standard handler', () => {
    expectTypeOf(createKestrelProxy).returns.toEqualTypeOf<FetchHandler>();
  });
});
