import { listenOnLoopback } from '@kestrel/server/node';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useRun } from '../use-run.js';
import { RunView } from './run-view.js';

/* A `baseUrl` where nothing listens: the run never had a connection, so nothing says one was lost. */

function Assistant({ baseUrl }: { baseUrl: string }) {
  const run = useRun({ baseUrl });
  return (
    <>
      <button onClick={() => run.start('Summarise the Q3 report')}>Ask</button>
      <RunView run={run} />
    </>
  );
}

describe('a server that cannot be reached', () => {
  it('is said to be unreachable, not a lost connection, with a retry', async () => {
    const gone = await listenOnLoopback((_req, res) => res.end());
    await gone.close(); // the port now refuses connections
    render(<Assistant baseUrl={gone.url} />);
    await userEvent.click(screen.getByRole('button', { name: 'Ask' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(alert.querySelector('[data-kestrel-heading]')?.textContent).toBe('Could not reach the server');
    expect(alert.textContent).toContain('POST /v1/sessions/new/runs failed:');
    expect(alert.textContent).not.toMatch(/connection lost/i);
    expect(screen.getByRole('status').textContent).toBe('Could not reach the server');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
