import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { RunActivity } from '../run-activity.js';
import { Fixture, type FixtureArgs } from './support/fixture-run.js';

function RunActivityDemo({ defaultOpen = false, ...fixture }: FixtureArgs & { defaultOpen?: boolean }) {
  return <Fixture {...fixture}>{(run) => <RunActivity run={run} defaultOpen={defaultOpen} />}</Fixture>;
}

const meta = { title: 'Components/RunActivity', component: RunActivityDemo } satisfies Meta<typeof RunActivityDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const ToolRunning: Story = {
  args: { scenario: 'completed-payload', defaultOpen: true, freeze: { until: (state) => state.tools.length === 1 } },
};

export const OpenWithTheKeyboard: Story = {
  args: { scenario: 'tool-error' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const toggle = canvas.getByRole('button', { name: /Activity/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // The theme's arrow is decoration: its empty alternative text keeps it out of the button's name.
    await expect(getComputedStyle(toggle, '::before').content).toBe('"▸" / ""');
    await userEvent.tab();
    await expect(toggle).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(canvas.getByText('weather.forecast').closest('li')).toHaveAttribute('data-tool-status', 'failed');
  },
};

/** A settled run, open: its tool calls as evidence, and its last progress as a step it reached, not a stuck bar. */
export const Settled: Story = {
  args: { scenario: 'completed-payload', defaultOpen: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.queryByRole('progressbar')).toBeNull();
    await expect(canvas.getByText(/^Last step: /)).toBeVisible();
  },
};
