import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { RunErrorAlert } from '../run-error-alert.js';
import { RunStatus } from '../run-status.js';
import { Fixture, type FixtureArgs } from './support/fixture-run.js';

function RunStatusDemo(fixture: FixtureArgs) {
  return <Fixture {...fixture}>{(run) => <RunStatus run={run} />}</Fixture>;
}

const meta = { title: 'Components/RunStatus', component: RunStatusDemo } satisfies Meta<typeof RunStatusDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Started: Story = { args: { scenario: 'completed-text', freeze: { upTo: 8 } } };
export const Waiting: Story = { args: { scenario: 'waiting-text' } };
export const Finished: Story = { args: { scenario: 'completed-text' } };
/** A FAILED outcome: the only state announced as "Run failed" (with its message: why is heard with it). */
export const Failed: Story = { args: { scenario: 'failed-no-text' } };
export const Cancelled: Story = { args: { scenario: 'cancelled' } };
export const Detached: Story = {
  args: { scenario: 'completed-text', freeze: { upTo: 10, then: [{ type: 'client/detached' }] } },
};

const announces =
  (announcement: string, text: string): Story['play'] =>
  async ({ canvasElement }) => {
    const region = within(canvasElement).getByRole('status');
    await expect(region).toHaveAttribute('data-announcement', announcement);
    await expect(region).toHaveTextContent(text);
  };

/** What broke is announced as what it is, never like a FAILED outcome. */
export const StreamBroke: Story = {
  args: { scenario: 'truncated' },
  play: announces('stream-ended', 'The stream broke before the run finished'),
};
export const ConnectionLost: Story = {
  args: {
    scenario: 'completed-text',
    freeze: { upTo: 10, then: [{ type: 'client/connection-lost', message: 'The network connection was lost' }] },
  },
  play: announces('connection-lost', 'Connection lost: no result received'),
};
export const InvalidEvent: Story = {
  args: { scenario: 'malformed-event' },
  play: announces('protocol-error', 'The server sent an invalid event'),
};
export const InvalidEventAfterOutcome: Story = {
  args: { scenario: 'event-after-completed' },
  play: announces('invalid-after-outcome', 'The server sent an invalid event after the outcome'),
};

/** Two views of one run (here two statuses): one says the sentence; the other shows it, silent. */
export const TwoViewsOfOneRun: Story = {
  args: { scenario: 'completed-text' },
  render: (fixture) => (
    <Fixture {...fixture}>
      {(run) => (
        <>
          <RunStatus run={run} />
          <RunStatus run={run} />
        </>
      )}
    </Fixture>
  ),
  play: async ({ canvasElement }) => {
    const [first, second] = within(canvasElement).getAllByRole('status');
    await expect(first).toHaveAttribute('aria-live', 'polite');
    await expect(second).toHaveAttribute('aria-live', 'off');
    await expect(second).toHaveTextContent(first!.textContent ?? '');
  },
};

/**
 * What broke, with the run's only `Run.Error` in a hidden panel: the alert is never heard, so the status says it
 * (with a shown `Run.Error` beside it, the status would leave it to the alert).
 */
export const ErrorWithHiddenAlert: Story = {
  args: { scenario: 'truncated' },
  render: (fixture) => (
    <Fixture {...fixture}>
      {(run) => (
        <>
          <div hidden>
            <RunErrorAlert run={run} data-testid="hidden-alert" />
          </div>
          <RunStatus run={run} />
        </>
      )}
    </Fixture>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByTestId('hidden-alert')).not.toHaveAttribute('role');
    await expect(canvas.getByRole('status')).toHaveAttribute('data-announcement', 'stream-ended');
    await expect(canvas.getByRole('status')).toHaveAttribute('aria-live', 'polite');
  },
};
