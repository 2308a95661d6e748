'use client';
import type { SessionEntry, SessionState } from '@kestrel/core';
import { createContext, useContext } from 'react';
import type { SessionBinding } from '../../types.js';
import type { RenderText } from '../assistant-text.js';
import type { RenderPayload } from '../payload-panel.js';
import type { ToolRenderers } from '../tool-renderer.js';
import type { RenderInteraction } from '../use-interaction.js';
import type { ScrollStore } from './scroll-store.js';

/** What `Session.Root` shares with its parts. The payload type is erased here; `Session.Root` checked it. */
export interface SessionContextValue {
  readonly renderPayload: RenderPayload<unknown> | undefined;
  readonly renderText: RenderText | undefined;
  readonly tools: ToolRenderers | undefined;
  readonly renderInteraction: RenderInteraction | undefined;
  readonly session: SessionBinding<unknown>;
  /** Where the thread is scrolled, shared by the thread, the composer and "Jump to latest". */
  readonly scroll: ScrollStore;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

/** The nearest `Session.Root`'s context; throws an error naming the part outside one. */
export function useSessionContext(part: string): SessionContextValue {
  const context = useContext(SessionContext);
  if (context === null) throw new Error(`<${part}> needs a <Session.Root session={session}> above it.`);
  return context;
}

const byKey = new WeakMap<SessionState<unknown>, ReadonlyMap<string, SessionEntry<unknown>>>();

/** The entry with this key, found in a map built once per session state (not a scan per entry per change). */
export function entryByKey(state: SessionState<unknown>, key: string): SessionEntry<unknown> | undefined {
  let map = byKey.get(state);
  if (map === undefined) {
    map = new Map(state.entries.map((entry) => [entry.key, entry]));
    byKey.set(state, map);
  }
  return map.get(key);
}

/** The entry keys in order, for lists that re-render only when entries come or go. */
export const selectKeys = (state: SessionState<unknown>): readonly string[] => state.entries.map((entry) => entry.key);

export function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

/** The active entry's status (live or waiting), or `idle` when no run is in progress. */
export function selectActivity(state: SessionState<unknown>): 'idle' | 'sending' | 'live' | 'waiting' {
  if (state.activeKey === null) return 'idle';
  const status = entryByKey(state, state.activeKey)?.status;
  return status === 'sending' || status === 'live' || status === 'waiting' ? status : 'idle';
}
