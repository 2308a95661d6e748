import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { describe, expect, it } from 'vitest';
import * as preview from '../../../../.storybook/preview.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import * as partStories from './stories/run-parts.stories.js';
import * as toolStories from './stories/tool-renderer.stories.js';

setProjectAnnotations(preview);
const stories = [...Object.values(composeStories(partStories)), ...Object.values(composeStories(toolStories))];

describe('the part and tool renderer stories', () => {
  it.each(stories.map((story) => [story.storyName, story] as const))(
    'render and play "%s" in jsdom, without axe violations',
    async (_name, story) => {
      await story.run();
      const root = document.querySelector<HTMLElement>('[data-kestrel-run]');
      expect(document.querySelectorAll('[data-kestrel-run]')).toHaveLength(1);
      await expectNoAxeViolations(root as HTMLElement);
    },
  );
});
