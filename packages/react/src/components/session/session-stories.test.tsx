import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { describe, expect, it } from 'vitest';
import * as preview from '../../../../../.storybook/preview.js';
import { expectNoAxeViolations } from '../axe-check.test-helper.js';
import * as sessionStories from '../stories/session-view.stories.js';

setProjectAnnotations(preview);
const stories = Object.values(composeStories(sessionStories));

describe('the SessionView stories', () => {
  it('cover every state the issue names', () => {
    expect(stories.map((story) => story.storyName)).toEqual(
      expect.arrayContaining([
        'Empty',
        'HistoryLoading',
        'HistoryUnavailable',
        'QueuedMessage',
        'LiveRunAtTheBottom',
        'WaitingInTheMiddle',
        'FailedToSend',
        'AnsweredElsewhere',
        'HistoryError',
        'InterruptedRun',
        'FailedAfterItsRetry',
        'ComposerBlocked',
        'ComposerReplacing',
        'ThousandRuns',
      ]),
    );
  });

  it.each(stories.map((story) => [story.storyName, story] as const))(
    'render and play "%s" in jsdom, without axe violations',
    async (_name, story) => {
      await story.run();
      const root = document.querySelector<HTMLElement>('[data-kestrel-session]');
      expect(document.querySelectorAll('[data-kestrel-session]')).toHaveLength(1);
      await expectNoAxeViolations(root as HTMLElement);
    },
  );
});
