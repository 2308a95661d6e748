import { RunPanel } from './run-panel';

export default function Home() {
  return (
    <>
      <h1>A Kestrel run in Next.js</h1>
      <p>
        Start an input with <code>[scenario:waiting-approval]</code>, <code>[scenario:failed-retryable]</code> or{' '}
        <code>[scenario:truncated]</code> to play another shared scenario of the mock Kestrel.
      </p>
      <RunPanel />
    </>
  );
}
