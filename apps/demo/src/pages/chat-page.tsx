import { SessionView, useSession } from '@kestrel/react';
import { invoiceSchema, scenarios } from '@kestrel/testing';
import { useEffect, useId, useRef, useState } from 'react';
import { InvoiceTable } from '../invoice-table.js';
import { createChatClient } from '../scenario-client.js';
import { rememberSession } from '../session-history.js';

const renderInvoice = (invoice: Parameters<typeof InvoiceTable>[0]['invoice']) => <InvoiceTable invoice={invoice} />;

function sessionFromUrl(): string | undefined {
  return new URLSearchParams(window.location.search).get('session') ?? undefined;
}

function putSessionInUrl(sessionId: string | null) {
  const url = new URL(window.location.href);
  if (sessionId === null) url.searchParams.delete('session');
  else url.searchParams.set('session', sessionId);
  window.history.replaceState(null, '', url);
}

interface ConversationProps {
  readonly sessionId: string | undefined;
  readonly pickScenario: () => string;
}

/** One conversation; remounted (with a new key) for a new one. */
function Conversation({ sessionId, pickScenario }: ConversationProps) {
  const [client] = useState(() => createChatClient(pickScenario));
  const session = useSession({
    client,
    sessionId,
    payloadSchema: invoiceSchema,
    onSessionId: (id) => {
      putSessionInUrl(id);
      const first = session.getState().entries[0];
      rememberSession({ sessionId: id, title: first?.input ?? id, startedAt: new Date().toISOString() });
    },
  });
  return (
    <SessionView
      session={session}
      className="chat"
      renderPayload={renderInvoice}
      placeholder={__KESTREL_MOCK__ ? 'Write anything: the mock plays the scenario picked above' : 'Ask the agent'}
    />
  );
}

/** The landing page: a conversation with the agent, its session id in the URL so a reload brings it all back. */
export function ChatPage() {
  const pickerId = useId();
  const [conversation, setConversation] = useState(() => ({ key: 0, sessionId: sessionFromUrl() }));
  const [scenario, setScenario] = useState('completed-text');
  const picked = useRef(scenario);
  useEffect(() => {
    picked.current = scenario;
  }, [scenario]);
  const [pickScenario] = useState(() => () => picked.current);
  return (
    <main className="page chat-page">
      <h1>Chat</h1>
      <div className="toolbar">
        <button
          type="button"
          onClick={() => {
            putSessionInUrl(null);
            setConversation((previous) => ({ key: previous.key + 1, sessionId: undefined }));
          }}
        >
          New conversation
        </button>
        {__KESTREL_MOCK__ ? (
          <>
            <label htmlFor={pickerId}>Next reply plays</label>
            <select id={pickerId} value={scenario} onChange={(event) => setScenario(event.target.value)}>
              {scenarios.map((candidate) => (
                <option key={candidate.name} value={candidate.name}>
                  {candidate.title}
                </option>
              ))}
            </select>
          </>
        ) : null}
      </div>
      <Conversation key={conversation.key} sessionId={conversation.sessionId} pickScenario={pickScenario} />
    </main>
  );
}
