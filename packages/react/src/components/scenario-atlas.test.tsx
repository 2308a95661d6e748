import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { scenarios } from '@kestrel/testing';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import * as preview from '../../../../.storybook/preview.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import * as runStates from './stories/run-states.stories.js';
import * as atlas from './stories/scenario-atlas.stories.js';

setProjectAnnotations(preview);
const stories = Object.values(composeStories(atlas));
const stateStories = composeStories(runStates);

describe('the Storybook state atlas', () => {
  it.each(scenarios.map((scenario) => scenario.name))('has a story for the shared scenario %s', (name) => {
    const story = stories.find((candidate) => candidate.parameters.scenario === name);
    expect(story, `scenario "${name}" has no story in scenario-atlas.stories.tsx: add one`).toBeDefined();
  });

  it('has no story for a scenario that does not exist', () => {
    const known = new Set(scenarios.map((scenario) => scenario.name));
    expect(
      stories.filter((story) => !known.has(story.parameters.scenario as string)).map((story) => story.storyName),
    ).toEqual([]);
  });

  it.each(stories.map((story) => [story.storyName, story] as const))(
    'renders and plays "%s" in jsdom',
    async (_name, story) => {
      await story.run();
      expect(document.querySelector('[data-kestrel-run]')).not.toBeNull();
    },
  );

  it.each(Object.entries(stateStories))(
    'renders and plays the run state "%s" in jsdom, without axe violations',
    async (_name, story) => {
      await story.run();
      await expectNoAxeViolations(document.querySelector<HTMLElement>('[data-kestrel-run]') as HTMLElement);
    },
  );
});

describe('the atlas controls', () => {
  it('offer scenario, theme, locale, payload renderer, activity, tool renderers and direction', () => {
    const { argTypes } = atlas.default;
    expect(Object.keys(argTypes)).toEqual(
      expect.arrayContaining(['scenario', 'theme', 'locale', 'renderPayload', 'activityOpen', 'toolRenderers', 'dir']),
    );
    expect(argTypes.scenario.options).toEqual(scenarios.map((scenario) => scenario.name));
    expect(argTypes.locale.options).toEqual(['en', 'de', 'fr', 'es', 'ja']);
  });

  it('switch a story to Japanese, dark, with the activity open and the typed tool renderers', async () => {
    const story = stories.find((candidate) => candidate.parameters.scenario === 'completed-payload');
    await story?.run({
      args: {
        ...story.args,
        locale: 'ja',
        theme: 'dark',
        activityOpen: true,
        toolRenderers: true,
        renderPayload: false,
      },
    });
    const root = document.querySelector<HTMLElement>('[data-kestrel-run]');
    expect(root?.closest('[data-kestrel-theme]')?.getAttribute('data-kestrel-theme')).toBe('dark');
    expect(screen.getByRole('status').textContent).toBe('実行が完了しました');
    // The typed OCR renderer's words, inside the activity: evidence, not the payload.
    expect(root?.querySelector('[data-kestrel-part="activity"]')?.textContent).toContain(
      'Read invoice-2041.pdf: 1 page(s), 1834 characters',
    );
    expect(root?.querySelector('[data-kestrel-part="payload"]')?.getAttribute('data-payload')).toBe('unrendered');
    await expectNoAxeViolations(root as HTMLElement);
  });

  it('renders the right-to-left story under dir="rtl", without axe violations', async () => {
    await stateStories.RightToLeft.run();
    const root = document.querySelector<HTMLElement>('[data-kestrel-run]');
    expect(root?.closest('[dir]')?.getAttribute('dir')).toBe('rtl');
    await expectNoAxeViolations(root as HTMLElement);
  });
});
