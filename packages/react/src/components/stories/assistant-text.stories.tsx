import type { Meta, StoryObj } from '@storybook/react-vite';
import { createMarkdownAnswer } from '@kestrel/testing';
import { expect, within } from 'storybook/test';
import { MarkdownText, renderMarkdown } from '../../markdown/markdown-text.js';
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

const longAnswer = createMarkdownAnswer({ length: 30_000 });

/**
 * A long markdown answer with theme.css: its settled blocks come in groups, each contained (layout, paint, style),
 * so the browser's per-frame walks stop at a group that did not change; every group is still rendered and shown.
 */
export const MarkdownLongAnswer: StoryObj = {
  render: () => (
    <div data-kestrel-run="">
      <MarkdownText>{longAnswer}</MarkdownText>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const groups = [...canvasElement.querySelectorAll('[data-kestrel-markdown-group]')];
    await expect(groups.length).toBeGreaterThan(2);
    for (const group of groups) {
      await expect(getComputedStyle(group).contain).toBe('content');
      await expect(group.firstElementChild!.checkVisibility({ contentVisibilityAuto: true })).toBe(true);
    }
    await expect(canvasElement.querySelectorAll('h2').length).toBe(longAnswer.match(/^## /gm)!.length);
  },
};
