import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { PayloadPanel } from '../payload-panel.js';
import { Fixture, type FixtureArgs } from './support/fixture-run.js';
import { renderInvoice } from './support/invoice-table.js';

function PayloadPanelDemo({ withRenderer = true, ...fixture }: FixtureArgs & { withRenderer?: boolean }) {
  return (
    <Fixture {...fixture}>
      {(run) => <PayloadPanel run={run} renderPayload={withRenderer ? renderInvoice : undefined} />}
    </Fixture>
  );
}

const meta = { title: 'Components/PayloadPanel', component: PayloadPanelDemo } satisfies Meta<typeof PayloadPanelDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Valid: Story = {
  args: { scenario: 'completed-payload' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('group', { name: 'Application content' })).toHaveAttribute(
      'data-authored',
      'app',
    );
  },
};
export const Invalid: Story = { args: { scenario: 'completed-invalid-payload' } };
export const NoRenderer: Story = { args: { scenario: 'completed-payload', withRenderer: false } };
