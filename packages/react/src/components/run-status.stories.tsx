import type { Meta, StoryObj } from '@storybook/react-vite';
import { RunStatus } from './run-status.js';
import { Fixture, type FixtureArgs } from './story-support/fixture-run.js';

function RunStatusDemo(fixture: FixtureArgs) {
  return <Fixture {...fixture}>{(run) => <RunStatus run={run} />}</Fixture>;
}

const meta = { title: 'Components/RunStatus', component: RunStatusDemo } satisfies Meta<typeof RunStatusDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Started: Story = { args: { scenario: 'completed-text', freeze: { upTo: 8 } } };
export const Waiting: Story = { args: { scenario: 'waiting-text' } };
export const Finished: Story = { args: { scenario: 'completed-text' } };
export const Failed: Story = { args: { scenario: 'failed-no-text' } };
