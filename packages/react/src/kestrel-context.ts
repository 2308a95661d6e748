'use client';
import type { ResponseFormat, RunClient, RunCompletedEvent, RunError } from '@kestrel/core';
import { createContext } from 'react';

/** Defaults every `useRun` under a `KestrelProvider` starts from; a hook's own options win. */
export interface KestrelDefaults {
  /** The session new runs start in. Default `new` (Kestrel opens one). */
  readonly sessionId?: string;
  /** Structured output to request on every start. */
  readonly responseFormat?: ResponseFormat;
  /** Called for every run under the provider that settles, after the hook's own `onSettled`. */
  readonly onSettled?: (event: RunCompletedEvent) => void;
  /** Called for every run under the provider that stops on an error, after the hook's own `onError`. */
  readonly onError?: (error: RunError) => void;
}

export interface KestrelContextValue {
  readonly client: RunClient;
  readonly defaults: KestrelDefaults;
}

export const KestrelContext = createContext<KestrelContextValue | null>(null);
KestrelContext.displayName = 'KestrelContext';
