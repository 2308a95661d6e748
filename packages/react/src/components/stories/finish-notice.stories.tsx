import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { AssistantText } from '../assistant-text.js';
import { FinishNotice } from '../finish-notice.js';
import { Fixture, type FixtureArgs } from './support/fixture-run.js';

/** The final text with its note below it, as RunView places them. */
function FinishNoticeDemo(fixture: FixtureArgs) {
  return (
    <Fixture {...fixture}>
      {(run) => (
        <>
          <AssistantText run={run} />
          <FinishNotice run={run} />
        </>
      )}
    </Fixture>
  );
}

const meta = { title: 'Components/FinishNotice', component: FinishNoticeDemo } satisfies Meta<typeof FinishNoticeDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** COMPLETED at the length limit: the answer may be incomplete, and the note says so. */
export const LengthLimit: Story = {
  args: { scenario: 'max-tokens' },
  play: async ({ canvasElement }) => {
    const note = within(canvasElement).getByRole('note');
    await expect(note).toHaveAttribute('data-kind', 'max-tokens');
    await expect(note).toHaveTextContent('Stopped at the length limit: the answer may be incomplete.');
  },
};

/** A finish reason newer than the kit: a neutral note names it, as text. */
export const UnknownKind: Story = {
  args: { scenario: 'completed-unknown-finish' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('note')).toHaveTextContent(
      'The agent\'s last turn ended with reason "refusal".',
    );
  },
};

/** A normal finish: no note at all. */
export const Completed: Story = {
  args: { scenario: 'completed-text' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('note')).toBeNull();
  },
};
