// The README's "Drop it in" example, verbatim, against a mock Kestrel on a real loopback HTTP server.
import { isFollowing } from '@kestrel/core';
import { createMockKestrel, type MockKestrel } from '@kestrel/server/mock';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunView, useRun } from '../index.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';

let kestrel: MockKestrel;
let baseUrl = '';

beforeAll(async () => {
  kestrel = await createMockKestrel({ eventDelayMs: 2 });
  baseUrl = kestrel.url;
});
afterAll(async () => {
  await kestrel.close();
});

// --- README: Drop it in ---
export function Assistant() {
  const run = useRun({ baseUrl });
  // While a run is followed, a second start would only stop watching the first (it goes on on the server).
  const busy = isFollowing(run.state.phase);
  return (
    <>
      <button disabled={busy} onClick={() => run.start('[scenario:waiting-approval] Email the Q3 report to the board')}>
        Ask
      </button>
      <RunView run={run} />
    </>
  );
}
// --- end ---

describe('the README drop-in', () => {
  it('streams, asks its question, takes the answer and shows the final text', async () => {
    const user = userEvent.setup();
    const { container } = render(<Assistant />);
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    const prompt = await screen.findByRole(
      'form',
      { name: 'Send the Q3 report to the board (6 recipients)?' },
      { timeout: 5000 },
    );
    expect(document.activeElement).toBe(prompt);
    await expectNoAxeViolations(container);
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(
      () => expect(container.querySelector('[data-kestrel-run]')?.getAttribute('data-status')).toBe('COMPLETED'),
      { timeout: 5000 },
    );
    expect(container.querySelector('[data-kestrel-part="assistant-text"]')?.textContent).toBe(
      'Sent the Q3 report to all 6 board members.',
    );
    expect(screen.getByRole('status').textContent).toBe('Run finished');
    // No longer followed: another question can be asked.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Ask' }).disabled).toBe(false);
  });
});
