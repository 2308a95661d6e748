import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as preview from '../../../../.storybook/preview.js';
import { expectNoAxeViolations } from '../components/axe-check.test-helper.js';
import * as recordingStories from '../components/stories/recordings.stories.js';
import * as inspectorStories from './stories/run-inspector.stories.js';
import { layOutTimelines } from './timeline-layout.test-helper.js';

setProjectAnnotations(preview);
const stories = [
  ...Object.values(composeStories(inspectorStories)),
  ...Object.values(composeStories(recordingStories)),
];

let restoreLayout: () => void;
beforeAll(() => {
  restoreLayout = layOutTimelines();
});
afterAll(() => restoreLayout());

describe('the inspector stories (live, resumed, protocol error at a seq, 100,000 events) and the recordings atlas', () => {
  it.each(stories.map((story) => [story.storyName, story] as const))(
    'render and play "%s" in jsdom, without axe violations',
    async (_name, story) => {
      await story.run();
      const inspector = document.querySelector<HTMLElement>('[data-kestrel-inspector]');
      expect(inspector).not.toBeNull();
      await expectNoAxeViolations(inspector as HTMLElement);
    },
  );
});
