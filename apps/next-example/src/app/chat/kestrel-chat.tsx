'use client';
import { useChat } from '@ai-sdk/react';
import { KestrelChatTransport, kestrelDataPartSchemas, type KestrelUIMessage } from '@kestrel/ai-sdk';
import { useKestrelClient } from '@kestrel/react';
import { useState, type ReactNode } from 'react';

type Part = KestrelUIMessage['parts'][number];

/** The parts this page shows; docs/ai-sdk.md has a complete renderer (tools, payloads, answering WAITING). */
function MessagePart({ part }: { part: Part }): ReactNode {
  switch (part.type) {
    case 'text':
      return <p>{part.text}</p>; // only the settled output.assistantText is a text part
    case 'data-kestrel-draft':
      return part.data.state === 'settled' ? null : (
        <p aria-busy={part.data.state === 'streaming'}>{part.data.text} (draft)</p>
      );
    case 'data-kestrel-error':
      return (
        <p role="alert">
          {part.data.source === 'output'
            ? `The run failed: ${part.data.error.message}`
            : `No outcome: ${part.data.error.message}`}
        </p>
      );
    case 'data-kestrel-cancellation':
      return <p>{`Cancelled: ${part.data.reason}`}</p>;
    case 'data-kestrel-interaction':
      return <p>{`Waiting for you: ${part.data.interaction.prompt}`}</p>;
    default:
      return null;
  }
}

/** Said on a reply when the user message before it was not sent: the run had moved on in another tab. */
function NotSentNote({ message }: { message: KestrelUIMessage }): ReactNode {
  if (message.metadata?.kestrelAnswerNotApplied !== undefined)
    return <p role="status">This question had already been answered, so your answer was not sent.</p>;
  if (message.metadata?.kestrelMessageNotSent !== undefined)
    return (
      <p role="status">The run was busy in another tab: your message was not sent. Send it again once it is done.</p>
    );
  return null;
}

/** `useChat` driving Kestrel runs through the app's proxy route. */
export function KestrelChat(): ReactNode {
  const client = useKestrelClient();
  const [transport] = useState(() => new KestrelChatTransport({ client }));
  const chat = useChat<KestrelUIMessage>({ transport, dataPartSchemas: kestrelDataPartSchemas });
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  return (
    <section aria-label="Chat" aria-busy={busy}>
      <ol aria-label="Messages">
        {chat.messages.map((message) => (
          <li key={message.id} data-role={message.role}>
            {message.parts.map((part, index) => (
              <MessagePart key={index} part={part} />
            ))}
            <NotSentNote message={message} />
          </li>
        ))}
      </ol>
      {chat.status === 'error' && <p role="alert">{chat.error?.message}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const text = new FormData(form).get('message');
          if (typeof text !== 'string' || text.trim() === '') return;
          void chat.sendMessage({ text });
          form.reset();
        }}
      >
        <label>
          Message <input name="message" size={60} />
        </label>{' '}
        <button type="submit" disabled={busy}>
          Send
        </button>{' '}
        {busy && (
          <button type="button" onClick={() => void chat.stop()}>
            Stop
          </button>
        )}
      </form>
    </section>
  );
}
