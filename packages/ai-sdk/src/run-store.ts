/** The run a chat is following: enough to re-attach after a dropped stream or a reload. */
export interface KestrelRunRecord {
  readonly runId: string;
  /** The last seq before the attempt the chat's last message shows (0 for a first attempt). */
  readonly fromSeq: number;
}

/**
 * Where the transport remembers, per chat id, the run whose message is still open. A record is written once the
 * run id is known and removed when the attempt settles. Persist it (e.g. in `sessionStorage`) to resume a run
 * after a page reload with `useChat({ resume: true })`.
 */
export interface KestrelRunStore {
  get(chatId: string): KestrelRunRecord | null | Promise<KestrelRunRecord | null>;
  set(chatId: string, record: KestrelRunRecord): void | Promise<void>;
  delete(chatId: string): void | Promise<void>;
}

/** The default store: in memory, for reconnecting within one page life. */
export function createMemoryRunStore(): KestrelRunStore {
  const records = new Map<string, KestrelRunRecord>();
  return {
    get: (chatId) => records.get(chatId) ?? null,
    set: (chatId, record) => void records.set(chatId, record),
    delete: (chatId) => void records.delete(chatId),
  };
}
