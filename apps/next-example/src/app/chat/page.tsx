import { KestrelChat } from './kestrel-chat';

export default function ChatPage() {
  return (
    <>
      <h1>useChat with the Kestrel transport</h1>
      <KestrelChat />
    </>
  );
}
