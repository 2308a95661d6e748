import { useState } from 'react';
import { SessionView } from '../../session/session-view.js';
import { createFixtureSession, type FixtureSessionOptions } from './fixture-session.js';
import { InvoiceTable } from './invoice-table.js';

/** What a session story varies: the fixture session's entries, history and policy. */
export type SessionStoryProps = FixtureSessionOptions;

/** A `SessionView` over an in-memory session, in a 560 px tall frame (the thread scrolls inside it). */
export function SessionStory(props: SessionStoryProps) {
  const [session] = useState(() => createFixtureSession(props));
  return (
    <div style={{ blockSize: 560, display: 'grid' }}>
      <SessionView session={session} renderPayload={(invoice) => <InvoiceTable invoice={invoice} />} />
    </div>
  );
}
