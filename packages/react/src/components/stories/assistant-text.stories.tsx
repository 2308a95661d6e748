import type { Meta, StoryObj } from '@storybook/react-vite';
import { createMarkdownAnswer } from '@kestrel/testing';
import { expect, waitFor, within } from 'storybook/test';
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
// Whether a group's blocks are rendered: checkVisibility tells of an element inside a skipped group, not of the group.
const shown = (group: Element) => group.firstElementChild!.checkVisibility({ contentVisibilityAuto: true });

/**
 * A long markdown answer with theme.css: its settled groups of blocks far below the screen are not rendered (the
 * cost of a frame stays the same however long the answer grows), yet their text is in the page, and a group is
 * rendered as soon as it is scrolled to.
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
    const [first, last] = [groups[0]!, groups.at(-1)!];
    await waitFor(() => expect(shown(last)).toBe(false));
    await expect(shown(first)).toBe(true);
    await expect(last.querySelectorAll('h2, p').length).toBeGreaterThan(0);
    await expect(canvasElement.textContent).toContain(last.textContent);
    last.scrollIntoView();
    await waitFor(() => expect(shown(last)).toBe(true));
  },
};
