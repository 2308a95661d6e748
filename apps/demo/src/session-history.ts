import { localList } from './local-list.js';

/** One conversation this browser started, as the history page lists it. */
export interface SessionHistoryEntry {
  readonly sessionId: string;
  /** The first message, as its title. */
  readonly title: string;
  readonly startedAt: string;
}

const sessions = localList<SessionHistoryEntry>('kestrel-demo:sessions', (entry) => entry.sessionId);

export const readSessions = sessions.read;

/** Adds a conversation once (by id), newest first. */
export const rememberSession = sessions.remember;
