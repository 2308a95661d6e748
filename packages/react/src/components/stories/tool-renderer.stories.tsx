import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Run } from '../run-parts.js';
import type { FixtureArgs } from './support/fixture-run.js';
import { RootFixture } from './support/root-fixture.js';
import { ocrRenderer, strictOcrRenderer, weatherRenderer } from './support/tool-renderers.js';

const renderers = {
  typed: { 'ocr.extract': ocrRenderer, 'weather.forecast': weatherRenderer },
  'schema-mismatch': { 'ocr.extract': strictOcrRenderer },
  none: {},
} as const;

/** The activity panel, open, with the app's tool renderers: each call under its name and status, as evidence. */
function ToolRenderersDemo({
  renderers: which = 'typed',
  ...fixture
}: FixtureArgs & { renderers?: keyof typeof renderers }) {
  return (
    <RootFixture {...fixture} tools={renderers[which]}>
      <Run.Activity defaultOpen />
    </RootFixture>
  );
}

const meta = {
  title: 'Components/Tool renderers',
  component: ToolRenderersDemo,
  argTypes: { renderers: { control: 'select', options: Object.keys(renderers) } },
} satisfies Meta<typeof ToolRenderersDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

const tool = (canvasElement: HTMLElement, name: string) =>
  canvasElement.querySelector<HTMLElement>(`[data-kestrel-part="tool"][data-tool-name="${name}"]`);

/** A call still running: the renderer gets its validated input. */
export const Running: Story = {
  args: { scenario: 'completed-payload', freeze: { until: (state) => state.tools.length === 1 } },
  play: async ({ canvasElement }) => {
    await expect(tool(canvasElement, 'ocr.extract')).toHaveAttribute('data-status', 'running');
    await expect(tool(canvasElement, 'ocr.extract')).toHaveTextContent('Reading invoice-2041.pdf…');
  },
};

/** A call that succeeded: input and output, both validated. */
export const Succeeded: Story = {
  args: { scenario: 'completed-payload' },
  play: async ({ canvasElement }) => {
    await expect(tool(canvasElement, 'ocr.extract')).toHaveAttribute('data-status', 'succeeded');
    await expect(tool(canvasElement, 'ocr.extract')).toHaveTextContent('1 page(s), 1834 characters');
  },
};

/** A call that failed, in the renderer's words; a tool with no renderer keeps the generic item. */
export const Failed: Story = {
  args: { scenario: 'tool-error' },
  play: async ({ canvasElement }) => {
    await expect(tool(canvasElement, 'weather.forecast')).toHaveAttribute('data-status', 'failed');
    await expect(tool(canvasElement, 'weather.forecast')).toHaveTextContent('No forecast for Oslo');
    await expect(tool(canvasElement, 'cache.lookup')).toHaveTextContent('cache.lookup done');
  },
};

/** An output that does not match the renderer's schema: a visible notice with the issues, never a silent drop. */
export const SchemaFailure: Story = {
  args: { scenario: 'completed-payload', renderers: 'schema-mismatch' },
  play: async ({ canvasElement }) => {
    const notice = within(tool(canvasElement, 'ocr.extract') as HTMLElement).getByRole('note');
    await expect(notice).toHaveAttribute('data-kind', 'output');
    await expect(notice).toHaveTextContent("This tool call's output does not match this app's schema");
  },
};
