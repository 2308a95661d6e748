import type { Meta, StoryObj } from '@storybook/react-vite';
import { scenarios } from '@kestrel/testing';
import { useState } from 'react';
import { expect, userEvent, within } from 'storybook/test';
import { useRunContext } from '../run-context.js';
import { Run } from '../run-parts.js';
import type { FixtureArgs } from './support/fixture-run.js';
import { RootFixture } from './support/root-fixture.js';
import { storyNow } from './support/scenario-view.js';

/** Every part of `Run`, each rendered alone under a `Run.Root`. */
const parts = {
  Status: () => <Run.Status />,
  StatusAsChild: () => (
    <Run.Status asChild>
      <span data-testid="custom-status" />
    </Run.Status>
  ),
  Connection: () => <Run.Connection />,
  Activity: () => <Run.Activity defaultOpen />,
  ActivityControlled: () => <ControlledActivity />,
  Outcome: () => <Run.Outcome />,
  Retry: () => <Run.Retry />,
  Text: () => <Run.Text />,
  FinishNotice: () => <Run.FinishNotice />,
  Prompt: () => <Run.Prompt focusOnWait={false} now={storyNow} />,
  Payload: () => <Run.Payload />,
  Error: () => <Run.Error />,
  ReceivedOutcome: () => <Run.ReceivedOutcome />,
  Cancel: () => <Run.Cancel />,
  CancelRefused: () => <RefusedCancel />,
  CancelAsChild: () => (
    <Run.Cancel asChild>
      <button type="button" className="app-button">
        Stop generating
      </button>
    </Run.Cancel>
  ),
} as const;

/** The root's run, whose cancel request the server refuses (503): the run goes on. */
function RefusedCancel() {
  const run = useRunContext();
  const [refusing] = useState(() => ({
    ...run,
    cancel: () => Promise.reject(new Error('POST /v1/runs/…/cancel: HTTP 503 unavailable')),
  }));
  return <Run.Cancel run={refusing} />;
}

function ControlledActivity() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(!open)}>
        {open ? 'Hide the work' : 'Show the work'}
      </button>
      <Run.Activity open={open} onOpenChange={setOpen} />
    </>
  );
}

function PartDemo({ part, ...fixture }: FixtureArgs & { part: keyof typeof parts }) {
  const Part = parts[part];
  return (
    <RootFixture {...fixture}>
      <Part />
    </RootFixture>
  );
}

const meta = {
  title: 'Components/Run parts',
  component: PartDemo,
  // The Docs page shows a prop table for each part, one tab per part.
  subcomponents: {
    'Run.Root': Run.Root,
    'Run.Status': Run.Status,
    'Run.Connection': Run.Connection,
    'Run.Activity': Run.Activity,
    'Run.Outcome': Run.Outcome,
    'Run.Retry': Run.Retry,
    'Run.Text': Run.Text,
    'Run.FinishNotice': Run.FinishNotice,
    'Run.Prompt': Run.Prompt,
    'Run.Payload': Run.Payload,
    'Run.Error': Run.Error,
    'Run.ReceivedOutcome': Run.ReceivedOutcome,
    'Run.Cancel': Run.Cancel,
  },
  argTypes: {
    part: { control: 'select', options: Object.keys(parts), description: 'Which part to render under Run.Root' },
    scenario: {
      control: 'select',
      options: scenarios.map((scenario) => scenario.name),
      description: 'A shared scenario from @kestrel/testing',
    },
    freeze: { table: { disable: true } },
  },
} satisfies Meta<typeof PartDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

const partOf = (canvasElement: HTMLElement, name: string) =>
  canvasElement.querySelector<HTMLElement>(`[data-kestrel-part="${name}"]`);

export const Status: Story = {
  args: { part: 'Status', scenario: 'waiting-approval' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Waiting for your answer');
  },
};

export const StatusAsChild: Story = {
  args: { part: 'StatusAsChild', scenario: 'completed-text' },
  play: async ({ canvasElement }) => {
    const status = within(canvasElement).getByTestId('custom-status');
    await expect(status).toHaveAttribute('role', 'status');
    await expect(status).toHaveTextContent('Run finished');
  },
};

export const ConnectionReconnecting: Story = {
  args: {
    part: 'Connection',
    scenario: 'dropped-mid-stream',
    freeze: { until: (state) => state.phase === 'reconnecting' },
  },
  play: async ({ canvasElement }) => {
    await expect(partOf(canvasElement, 'connection')).toHaveAttribute('data-state', 'reconnecting');
  },
};

export const ConnectionDetached: Story = {
  args: { part: 'Connection', scenario: 'completed-text', freeze: { upTo: 10, then: [{ type: 'client/detached' }] } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Follow again' })).toHaveAttribute(
      'data-kestrel-action',
      'follow-again',
    );
  },
};

export const Activity: Story = {
  args: { part: 'Activity', scenario: 'tool-error' },
  play: async ({ canvasElement }) => {
    await expect(partOf(canvasElement, 'activity')).toHaveAttribute('data-state', 'expanded');
  },
};

export const ActivityControlled: Story = {
  args: { part: 'ActivityControlled', scenario: 'tool-error' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(partOf(canvasElement, 'activity')).toHaveAttribute('data-state', 'collapsed');
    await userEvent.click(canvas.getByRole('button', { name: 'Show the work' }));
    await expect(partOf(canvasElement, 'activity')).toHaveAttribute('data-state', 'expanded');
    await userEvent.click(canvas.getByRole('button', { name: /^Activity/ }));
    await expect(canvas.getByRole('button', { name: 'Show the work' })).toBeInTheDocument();
  },
};

export const OutcomeFailed: Story = {
  args: { part: 'Outcome', scenario: 'failed-retryable' },
  play: async ({ canvasElement }) => {
    await expect(partOf(canvasElement, 'outcome')).toHaveAttribute('data-status', 'FAILED');
    await expect(within(canvasElement).getByRole('button', { name: 'Try again' })).toHaveAttribute(
      'data-kestrel-action',
      'retry',
    );
  },
};

export const OutcomeCancelled: Story = {
  args: { part: 'Outcome', scenario: 'cancelled' },
  play: async ({ canvasElement }) => {
    await expect(partOf(canvasElement, 'outcome')).toHaveAttribute('data-status', 'CANCELLED');
  },
};

export const Retry: Story = {
  args: { part: 'Retry', scenario: 'failed-retryable' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Try again' })).toHaveAttribute(
      'data-retry-mode',
      'restart',
    );
  },
};

export const TextDraft: Story = {
  args: { part: 'Text', scenario: 'completed-text', freeze: { until: (state) => state.draftText.length > 40 } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('group', { name: 'Assistant response, in progress' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
  },
};

export const TextFinal: Story = {
  args: { part: 'Text', scenario: 'completed-text' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('group', { name: 'Assistant response' })).toHaveAttribute(
      'data-kestrel-part',
      'assistant-text',
    );
  },
};

export const FinishNotice: Story = {
  args: { part: 'FinishNotice', scenario: 'max-tokens' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('note')).toHaveAttribute('data-kind', 'max-tokens');
  },
};

export const Prompt: Story = {
  args: { part: 'Prompt', scenario: 'waiting-approval' },
  play: async ({ canvasElement }) => {
    await expect(partOf(canvasElement, 'interaction')).toHaveAttribute('data-kind', 'approval');
  },
};

export const Payload: Story = {
  args: { part: 'Payload', scenario: 'completed-payload' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('group', { name: 'Application content' })).toHaveAttribute(
      'data-authored',
      'app',
    );
  },
};

export const ErrorAlert: Story = {
  args: { part: 'Error', scenario: 'truncated' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveAttribute('data-error-kind', 'truncated');
  },
};

export const ReceivedOutcome: Story = {
  args: { part: 'ReceivedOutcome', scenario: 'event-after-completed' },
  play: async ({ canvasElement }) => {
    await expect(partOf(canvasElement, 'received-outcome')).toHaveAttribute('data-status', 'COMPLETED');
  },
};

export const Cancel: Story = {
  args: { part: 'Cancel', scenario: 'completed-text', freeze: { until: (state) => state.phase === 'streaming' } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Stop the run' })).toHaveAttribute(
      'data-kestrel-action',
      'cancel',
    );
  },
};

/** Stop pressed, and the cancel request failed: the run goes on, and an alert says so beside the button. */
export const CancelRefused: Story = {
  args: {
    part: 'CancelRefused',
    scenario: 'completed-text',
    freeze: { until: (state) => state.phase === 'streaming' },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Stop the run' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'The run could not be stopped and is still running. Try again.',
    );
  },
};

export const CancelAsChild: Story = {
  args: {
    part: 'CancelAsChild',
    scenario: 'completed-text',
    freeze: { until: (state) => state.phase === 'streaming' },
  },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Stop generating' });
    await expect(button).toHaveAttribute('data-kestrel-action', 'cancel');
    await expect(button).toHaveClass('app-button');
  },
};
