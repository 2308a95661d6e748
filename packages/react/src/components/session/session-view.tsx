'use client';
import type { SessionRootProps } from './session-root.js';
import { Session } from './session-parts.js';

/** Props of `SessionView`: `Session.Root`'s (`P` types `renderPayload`), plus the composer's placeholder. */
export interface SessionViewProps<P> extends Omit<SessionRootProps<P>, 'asChild' | 'children'> {
  readonly placeholder?: string;
}

/**
 * The drop-in conversation: the thread of runs (older ones loaded at the top, each run shown as `RunView` shows
 * it, the person's answers as their replies), "Jump to latest" once the person scrolls up, and the composer
 * (Stop while a run streams). One polite announcement per run outcome. Give it a height: the thread scrolls
 * inside it. The default composition of the `Session` parts.
 *
 * @example
 * const session = useSession({ sessionId: idFromUrl, onSessionId: putInUrl });
 * <SessionView session={session} renderPayload={(invoice) => <InvoiceTable invoice={invoice} />} />
 */
export function SessionView<P>({ placeholder, ...root }: SessionViewProps<P>) {
  return (
    <Session.Root {...root}>
      <Session.Status />
      <Session.Thread>
        <Session.LoadOlder />
      </Session.Thread>
      <Session.JumpToLatest />
      <Session.Composer placeholder={placeholder} />
    </Session.Root>
  );
}
