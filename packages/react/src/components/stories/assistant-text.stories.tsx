import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { renderMarkdown } from '../../markdown/markdown-text.js';
import { AssistantText } from '../assistant-text.js';
import { Fixture, type FixtureArgs } from './support/fixture-run.js';

function AssistantTextDemo({ markdown = false, ...fixture }: FixtureArgs & { markdown?: boolean }) {
  return (
    <Fixture {...fixture}>
      {(run) => <AssistantText run={run} renderText={markdown ? renderMarkdown : undefined} />}
    </Fixture>
  );
}

const meta = { title: 'Components/AssistantText', component: AssistantTextDemo } satisfies Meta<
  typeof AssistantTextDemo
>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Draft: Story = {
  args: { scenario: 'completed-text', freeze: { until: (state) => state.draftText.length > 40 } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('group', { name: 'Assistant response, in progress' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
  },
};
export const Final: Story = { args: { scenario: 'failed-retryable' } };
export const Interrupted: Story = { args: { scenario: 'truncated' } };
export const Markdown: Story = { args: { scenario: 'completed-payload', markdown: true } };
