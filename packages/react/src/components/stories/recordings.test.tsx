import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readRecordingFiles, recordingFiles } from './support/recording-files.js';
import { RecordingView } from './support/recording-view.js';

describe('the recordings atlas', () => {
  it('finds the demo recording committed in recordings/', () => {
    expect(recordingFiles.map((file) => `${file.name}:${file.status}`)).toContain('demo-dropped-mid-stream:ready');
  });

  it.each(recordingFiles.map((file) => [file.name, file] as const))(
    '%s: RunView shows the run as it was recorded to end',
    (_name, file) => {
      if (file.status !== 'ready') throw new Error(`${file.name}: ${file.problem}`);
      const { container } = render(
        <RecordingView file={file} aside={(run) => <output>{run.getState().events.length}</output>} />,
      );
      const root = container.querySelector('[data-kestrel-run]');
      expect(root?.getAttribute('data-phase')).toBe(file.recording.final.phase);
      expect(root?.getAttribute('data-status') ?? null).toBe(file.recording.final.status);
      // The aside (the inspector's place) gets the same run, every recorded event in it.
      expect(container.querySelector('output')?.textContent).toBe(String(file.recording.final.eventCount));
    },
  );

  it('a file that is not a recording becomes a story saying what is wrong, not a broken atlas', () => {
    const [file] = readRecordingFiles({ '../recordings/notes.kestrel-recording.json': { version: 1, entries: [] } });
    expect(file).toMatchObject({ status: 'unreadable', name: 'notes' });
    render(<RecordingView file={file!} />);
    expect(screen.getByRole('alert').textContent).toMatch(/^notes: Not a Kestrel recording: format/);
  });
});
