import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { RunErrorAlert } from '../run-error-alert.js';
import { Fixture, type FixtureArgs } from './support/fixture-run.js';

function RunErrorAlertDemo(fixture: FixtureArgs) {
  return <Fixture {...fixture}>{(run) => <RunErrorAlert run={run} />}</Fixture>;
}

const meta = { title: 'Components/RunErrorAlert', component: RunErrorAlertDemo } satisfies Meta<
  typeof RunErrorAlertDemo
>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Truncated: Story = {
  args: { scenario: 'truncated' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveAttribute('data-error-kind', 'truncated');
  },
};
export const ProtocolError: Story = { args: { scenario: 'malformed-event' } };
/** A protocol error after run.completed: the alert says an outcome was received (RunView shows it below). */
export const ProtocolErrorAfterOutcome: Story = {
  args: { scenario: 'event-after-completed' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent(
      "It arrived after the run's outcome was received.",
    );
  },
};
export const ConnectionLost: Story = {
  args: {
    scenario: 'completed-text',
    freeze: { upTo: 10, then: [{ type: 'client/connection-lost', message: 'The network connection was lost' }] },
  },
};
export const HttpError: Story = {
  args: {
    scenario: 'completed-text',
    freeze: {
      upTo: 1,
      then: [{ type: 'client/http-error', status: 503, code: 'unavailable', message: 'Kestrel is unavailable' }],
    },
  },
};
export const Timeout: Story = {
  args: {
    scenario: 'completed-text',
    freeze: {
      upTo: 1,
      then: [{ type: 'client/timed-out', message: 'No response headers within 30 s', timeoutMs: 30_000 }],
    },
  },
};

/**
 * Two views of one errored run, the first in a hidden panel (`display: none`, as a layout for another screen size
 * would hide it): the shown one is the alert, the hidden one leaves it (a hidden alert is never heard).
 */
export const FirstViewHidden: Story = {
  args: { scenario: 'truncated' },
  render: (fixture) => (
    <Fixture {...fixture}>
      {(run) => (
        <>
          <div hidden>
            <RunErrorAlert run={run} data-testid="hidden-view" />
          </div>
          <RunErrorAlert run={run} data-testid="shown-view" />
        </>
      )}
    </Fixture>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toBe(canvas.getByTestId('shown-view'));
    await expect(canvas.getByTestId('hidden-view')).not.toHaveAttribute('role');
  },
};
