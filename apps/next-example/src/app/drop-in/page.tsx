import { Assistant } from './assistant';

/** README's "Drop it in" snippet, pasted as is (`assistant.tsx`; a test keeps the two equal). */
export default function DropIn() {
  return (
    <>
      <h1>The README&apos;s drop-in snippet</h1>
      <Assistant />
    </>
  );
}
