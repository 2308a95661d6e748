'use client';
import { createRunClient, type RunClient, type RunClientOptions } from '@kestrel/core';
import { useContext, useMemo, type ReactNode } from 'react';
import { KestrelContext, type KestrelContextValue, type KestrelDefaults } from './kestrel-context.js';

/** Props of `KestrelProvider`: either a ready `client`, or a `baseUrl` (and `clientOptions`) to build one; `defaults` apply to every `useRun` below. */
export type KestrelProviderProps = {
  readonly children?: ReactNode;
  readonly defaults?: KestrelDefaults;
} & (
  | { readonly client: RunClient; readonly baseUrl?: never; readonly clientOptions?: never }
  | {
      readonly baseUrl: string;
      /** Everything else `createRunClient` takes (headers, reconnect policy, scheduler). */
      readonly clientOptions?: Omit<RunClientOptions, 'baseUrl'>;
      readonly client?: never;
    }
);

/**
 * Gives every `useRun` below it a run client and defaults. Pass a `client` you made with `createRunClient`, or a
 * `baseUrl` and the provider makes one. Creating the provider sends nothing: requests start with actions.
 *
 * @example
 * <KestrelProvider baseUrl="/api/kestrel" defaults={{ sessionId: 'ses_42' }}>
 *   <Chat />
 * </KestrelProvider>
 */
export function KestrelProvider(props: KestrelProviderProps) {
  const { client: given, baseUrl, clientOptions, defaults, children } = props;
  const client = useMemo(
    () => given ?? createRunClient({ ...clientOptions, baseUrl: baseUrl as string }),
    [given, baseUrl, clientOptions],
  );
  const value = useMemo<KestrelContextValue>(() => ({ client, defaults: defaults ?? {} }), [client, defaults]);
  return <KestrelContext.Provider value={value}>{children}</KestrelContext.Provider>;
}

/**
 * The run client of the nearest `KestrelProvider`; throws a clear error when there is none.
 *
 * @example
 * const client = useKestrelClient();
 * const event = await client.run({ input: 'Hello' }); // the JSON route: one terminal event, no stream
 */
export function useKestrelClient(): RunClient {
  const context = useContext(KestrelContext);
  if (context === null) {
    throw new Error(
      'useKestrelClient() found no <KestrelProvider client={…}> or <KestrelProvider baseUrl="…"> above it',
    );
  }
  return context.client;
}
