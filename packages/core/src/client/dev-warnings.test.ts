import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRunClient } from './create-run-client.js';

/* Development-only warnings (stripped from production builds) for two set-ups that fail without saying why. */

afterEach(() => vi.restoreAllMocks());

describe('development warnings', () => {
  it('warn once when baseUrl ends in /v1, which the client adds itself', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    createRunClient({ baseUrl: 'https://kestrel.example.com/v1' });
    createRunClient({ baseUrl: 'https://kestrel.example.com/v1/' });
    createRunClient({ baseUrl: 'https://kestrel.example.com/api' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/baseUrl ends in \/v1.*Leave \/v1 out of baseUrl/);
  });

  it('warn when a run starts with a payloadSchema and no responseFormat, naming the option', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = createRunClient({ baseUrl: 'http://127.0.0.1:9', reconnect: { attempts: 0 } });
    const schema = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as const;
    void client.start({ input: 'x', payloadSchema: schema, signal: AbortSignal.abort() }).result.catch(() => undefined);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /payloadSchema but no responseFormat.*responseFormat: \{ type: 'json_schema'/,
    );
    warn.mockClear();
    const responseFormat = { type: 'json_schema', name: 'r', schema: {} } as const;
    void client
      .start({ input: 'x', payloadSchema: schema, responseFormat, signal: AbortSignal.abort() })
      .result.catch(() => undefined);
    expect(warn).not.toHaveBeenCalled();
  });
});
