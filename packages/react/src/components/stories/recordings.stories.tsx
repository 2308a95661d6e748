import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { RunInspector } from '../../inspector/run-inspector.js';
import { recordingFiles } from './support/recording-files.js';
import { RecordingView } from './support/recording-view.js';

/**
 * Recorded runs: every `*.kestrel-recording.json` in `stories/recordings/` (a recording downloaded from an app, see
 * docs/debugging.md), replayed through the scenario format and shown as the recorded run ended. Pick the file with
 * the `recording` control; `recordings.test.tsx` renders every file.
 */
const meta = {
  title: 'Atlas/Recordings',
  component: RecordingView,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof RecordingView>;

export default meta;
type Story = StoryObj<typeof meta>;

const byName = Object.fromEntries(recordingFiles.map((file) => [file.name, file]));

/** One recording, as its run ended, with the run inspector beside it; the control lists every file of the folder. */
export const Recording: Story = {
  args: { file: recordingFiles[0]! },
  render: (args) => (
    <RecordingView
      {...args}
      aside={(run) => (
        <RunInspector run={run} recording={args.file.status === 'ready' ? args.file.recording : undefined} />
      )}
    />
  ),
  argTypes: {
    file: {
      control: 'select',
      options: Object.keys(byName),
      mapping: byName,
      description: 'A file of packages/react/src/components/stories/recordings/',
    },
    aside: { table: { disable: true } },
  },
  play: async ({ canvasElement, args }) => {
    if (args.file.status !== 'ready') return;
    const root = canvasElement.querySelector('[data-kestrel-run]');
    await expect(root?.getAttribute('data-phase')).toBe(args.file.scenario.expected.phase);
    // The inspector beside it holds every recorded entry, the client's own happenings among them.
    const inspector = canvasElement.querySelector('[data-kestrel-inspector]');
    await expect(inspector?.textContent).toContain(`${args.file.recording.entries.length} entries`);
  },
};
