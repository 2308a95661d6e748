import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { scenarios } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import * as preview from '../../../../.storybook/preview.js';
import * as atlas from './scenario-atlas.stories.js';

setProjectAnnotations(preview);
const stories = Object.values(composeStories(atlas));

describe('the Storybook state atlas', () => {
  it.each(scenarios.map((scenario) => scenario.name))('has a story for the shared scenario %s', (name) => {
    const story = stories.find((candidate) => candidate.parameters.scenario === name);
    expect(story, `scenario "${name}" has no story in scenario-atlas.stories.tsx: add one`).toBeDefined();
  });

  it('has no story for a scenario that does not exist', () => {
    const known = new Set(scenarios.map((scenario) => scenario.name));
    expect(stories.filter((story) => !known.has(story.parameters.scenario as string)).map((story) => story.storyName)).toEqual([]);
  });

  it.each(stories.map((story) => [story.storyName, story] as const))('renders and plays "%s" in jsdom', async (_name, story) => {
    await story.run();
    expect(document.querySelector('[data-kestrel-run]')).not.toBeNull();
  });
});
