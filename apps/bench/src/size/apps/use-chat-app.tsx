import { useChat } from '@ai-sdk/react';
import { createRoot } from 'react-dom/client';

// What an app would write with the AI SDK instead: useChat at its defaults (DefaultChatTransport to /api/chat).
function App() {
  const { messages, sendMessage, status } = useChat();
  return (
    <main data-status={status}>
      <button type="button" onClick={() => void sendMessage({ text: 'Hello' })}>
        Ask
      </button>
      {messages.map((message) => (
        <p key={message.id}>{message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}</p>
      ))}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
