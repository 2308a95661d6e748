/*
 * The complete example of docs/ai-sdk.md, kept here so that it is type-checked and tested against the mock
 * Kestrel (example-chat.test.tsx). It is not part of the package's exports.
 */
import { useChat } from '@ai-sdk/react';
import type { ChatTransport } from 'ai';
import { useRef, useState, type ReactNode } from 'react';
import { kestrelDataPartSchemas, type KestrelUIMessage } from './data-part-schemas.js';
import { pendingInteraction, respondWithAnswer } from './interaction-answer.js';

type Part = KestrelUIMessage['parts'][number];
type Chat = ReturnType<typeof useChat<KestrelUIMessage>>;

/** `live`: this message is the one the chat is still reading (after `stop()` it is not, whatever the draft says). */
function MessagePart({ part, live }: { part: Part; live: boolean }): ReactNode {
  switch (part.type) {
    case 'text':
      // Only the settled output.assistantText is a text part: this is the answer.
      return <p>{part.text}</p>;
    case 'data-kestrel-draft':
      // The streamed draft is motion: marked as such while it streams or when the run stopped short, gone once settled.
      return part.data.state === 'settled' ? null : (
        <div data-state={part.data.state} aria-busy={live && part.data.state === 'streaming'}>
          <p>{part.data.text}</p>
          <small>
            {part.data.state !== 'streaming'
              ? 'Stopped before an answer: this draft is incomplete.'
              : live
                ? 'Writing…'
                : 'Stopped following: the run may go on, and this draft is not an answer.'}
          </small>
        </div>
      );
    case 'reasoning':
      return (
        <details>
          <summary>Reasoning</summary>
          {part.text}
        </details>
      );
    case 'dynamic-tool':
      return (
        <p>{`Tool ${part.toolName}: ${part.state === 'output-error' ? `failed (${part.errorText})` : part.state}`}</p>
      );
    case 'data-kestrel-error':
      return part.data.source === 'output' ? (
        <p role="alert">{`The run failed: ${part.data.error.message}`}</p>
      ) : (
        <p role="alert">{`No outcome (${part.data.error.kind}): ${part.data.error.message}`}</p>
      );
    case 'data-kestrel-cancellation':
      return <p>{`Cancelled: ${part.data.reason}`}</p>;
    case 'data-kestrel-payload':
      // Structured output is data: render it as such (a table, a form, a card), never as chat text.
      return part.data.status === 'valid' ? (
        <pre aria-label="Result">{JSON.stringify(part.data.value, null, 2)}</pre>
      ) : (
        <p role="alert">{`The result does not match its schema: ${part.data.issues.map((issue) => issue.message).join('; ')}`}</p>
      );
    case 'data-kestrel-interaction':
      return <p>{`Waiting for you: ${part.data.interaction.prompt}`}</p>;
    default:
      return null;
  }
}

/** A person's answer to the interaction the chat waits on (approval shown; choice and form work alike). */
function PendingAnswer({ chat, onAnswer }: { chat: Chat; onAnswer: () => void }): ReactNode {
  const waiting = pendingInteraction(chat.messages);
  if (waiting === null || chat.status === 'submitted' || chat.status === 'streaming') return null;
  const { interaction } = waiting;
  if (interaction.kind !== 'approval') return null; // text: the composer below answers it; others: your own UI
  const answer = (approved: boolean) => {
    onAnswer(); // these buttons go with the question: focus goes to the messages, not to the page
    void respondWithAnswer(chat, { kind: 'approval', approved });
  };
  return (
    <div role="group" aria-label={interaction.prompt}>
      <button type="button" onClick={() => answer(true)}>
        Approve
      </button>
      <button type="button" onClick={() => answer(false)}>
        Decline
      </button>
    </div>
  );
}

/** What the transport did instead of sending the user message before this reply, if it did not send it. */
function notSentNotice(message: KestrelUIMessage): string | null {
  if (message.metadata?.kestrelAnswerNotApplied !== undefined)
    return 'This question had already been answered, so your answer was not sent.';
  const reason = message.metadata?.kestrelMessageNotSent?.reason;
  switch (reason) {
    case undefined:
      return null;
    case 'run-in-progress':
      return 'A reply begun elsewhere was still running: your message was not sent.';
    case 'run-waiting':
      return 'The run now asks something else: your message was not sent.';
    default:
      return reason satisfies never;
  }
}

/** Says that the user message before this reply was not sent, with a way to send its text as a new message. */
function NotSentNote({ chat, index }: { chat: Chat; index: number }): ReactNode {
  const notice = notSentNotice(chat.messages[index]!);
  if (notice === null) return null;
  const before = chat.messages[index - 1];
  const text =
    before?.role === 'user' ? before.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('') : '';
  // Offered on the latest reply, once the run waits on nothing: a message sent then starts a new run.
  const canResend =
    index === chat.messages.length - 1 && chat.status === 'ready' && pendingInteraction(chat.messages) === null;
  return (
    <p role="status">
      {notice}
      {canResend && text.trim() !== '' && (
        <button type="button" onClick={() => void chat.sendMessage({ text })}>
          Send it as a new message
        </button>
      )}
    </p>
  );
}

export function ExampleChat({ transport }: { transport: ChatTransport<KestrelUIMessage> }): ReactNode {
  const chat = useChat<KestrelUIMessage>({ transport, dataPartSchemas: kestrelDataPartSchemas });
  const [input, setInput] = useState('');
  const messages = useRef<HTMLOListElement>(null);
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  return (
    <section aria-label="Chat" aria-busy={busy}>
      {/* Not a live region: the draft changes many times a second, and a screen reader would read it word by word. */}
      <ol aria-label="Messages" tabIndex={-1} ref={messages}>
        {chat.messages.map((message, index) => (
          <li key={message.id} data-role={message.role}>
            {message.parts.map((part, partIndex) => (
              <MessagePart key={partIndex} part={part} live={busy && index === chat.messages.length - 1} />
            ))}
            <NotSentNote chat={chat} index={index} />
          </li>
        ))}
      </ol>
      <PendingAnswer chat={chat} onAnswer={() => messages.current?.focus()} />
      {chat.status === 'error' && (
        <div role="alert">
          {chat.error?.message}
          <button type="button" onClick={() => void chat.resumeStream()}>
            Reconnect
          </button>
        </div>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (input.trim() === '') return;
          void chat.sendMessage({ text: input });
          setInput('');
        }}
      >
        <label>
          Message <input value={input} onChange={(event) => setInput(event.target.value)} />
        </label>
        {busy ? (
          <button type="button" onClick={() => void chat.stop()}>
            Stop
          </button>
        ) : (
          <button type="submit">Send</button>
        )}
      </form>
    </section>
  );
}
