import type { Meta, StoryObj } from '@storybook/react-vite';
import { getScenario, scenarios } from '@kestrel/testing';
import { expect, within } from 'storybook/test';
import { ScenarioView, storyLocales, type ScenarioViewProps } from './support/scenario-view.js';

/**
 * The state atlas: one story per shared scenario (`@kestrel/testing`), each showing what RunView makes of the
 * run once a careful client has done everything it can. `scenario-atlas.test.tsx` fails when a scenario has no story.
 */
const meta = {
  title: 'Atlas/Scenarios',
  component: ScenarioView,
  args: {
    focusOnWait: false,
    theme: 'toolbar',
    locale: 'en',
    renderPayload: true,
    activityOpen: false,
    toolRenderers: false,
    dir: 'ltr',
  },
  // The workbench: switch the scenario, theme, language, payload renderer, activity and tool renderers of any story.
  argTypes: {
    scenario: {
      control: 'select',
      options: scenarios.map((scenario) => scenario.name),
      description: 'A shared scenario from @kestrel/testing',
    },
    theme: {
      control: 'inline-radio',
      options: ['toolbar', 'light', 'dark'],
      description: 'theme.css scheme (toolbar: follow the Theme toolbar)',
    },
    locale: {
      control: 'select',
      options: Object.keys(storyLocales),
      description: 'Label set: English or @kestrel/react/locales/*',
    },
    renderPayload: { control: 'boolean', description: "Pass the app's payload renderer" },
    activityOpen: { control: 'boolean', description: 'Open the activity panel on first render' },
    toolRenderers: {
      control: 'boolean',
      description: 'Typed renderers for the scenario tools (otherwise the generic items)',
    },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'Writing direction' },
    focusOnWait: { control: 'boolean' },
    freeze: { table: { disable: true } },
    labels: { table: { disable: true } },
    renderText: { table: { disable: true } },
    onAction: { table: { disable: true } },
    payloadRenderer: { table: { disable: true } },
  },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof ScenarioView>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The story of one scenario; `then` checks what that scenario adds after the common checks. */
function atlasStory(name: string, then?: (canvasElement: HTMLElement) => Promise<void>): Story {
  const scenario = getScenario(name);
  return {
    name: scenario.title,
    args: { scenario: name } satisfies ScenarioViewProps,
    parameters: { scenario: name, docs: { description: { story: scenario.description } } },
    play: async ({ canvasElement }) => {
      const root = canvasElement.querySelector('[data-kestrel-run]');
      await expect(root?.getAttribute('data-phase')).toBe(scenario.expected.phase);
      if (scenario.expected.status !== undefined)
        await expect(root?.getAttribute('data-status')).toBe(scenario.expected.status);
      if (scenario.expected.errorKind !== undefined) {
        const canvas = within(canvasElement as HTMLElement);
        await expect(canvas.getByRole('alert').getAttribute('data-error-kind')).toBe(scenario.expected.errorKind);
        // What broke is announced as what it is, never as a FAILED outcome.
        await expect(canvas.getByRole('status').getAttribute('data-announcement')).not.toBe('failed');
      }
      await then?.(canvasElement as HTMLElement);
    },
  };
}

export const CompletedText = atlasStory('completed-text');
export const CompletedPayload = atlasStory('completed-payload');
export const CompletedInvalidPayload = atlasStory('completed-invalid-payload');
/** Cut off at the length limit: the answer is shown with a note saying it may be incomplete, and the note is announced. */
export const MaxTokens = atlasStory('max-tokens', async (canvasElement) => {
  const canvas = within(canvasElement);
  await expect(canvas.getByRole('note')).toHaveTextContent(
    'Stopped at the length limit: the answer may be incomplete.',
  );
  await expect(canvas.getByRole('status')).toHaveTextContent('Run finished. Stopped at the length limit');
});
/** A finish reason newer than the kit: a neutral note names it, as text. */
export const CompletedUnknownFinish = atlasStory('completed-unknown-finish', async (canvasElement) => {
  await expect(within(canvasElement).getByRole('note')).toHaveAttribute('data-kind', 'other');
});
/** The second run of a conversation: its answer builds on the flight chosen in the run before. */
export const CompletedFollowUp = atlasStory('completed-follow-up');
export const FailedRetryable = atlasStory('failed-retryable');
/** Fails retryable; its Try again plays the scenario's retry, which completes. */
export const FailedRetryableThenCompleted = atlasStory('failed-retryable-then-completed');
export const FailedNoText = atlasStory('failed-no-text');
export const Cancelled = atlasStory('cancelled');
export const WaitingApproval = atlasStory('waiting-approval');
export const WaitingChoiceSingle = atlasStory('waiting-choice-single');
export const WaitingChoiceMultiple = atlasStory('waiting-choice-multiple');
export const WaitingText = atlasStory('waiting-text');
export const WaitingForm = atlasStory('waiting-form');
export const WaitingUnknownKind = atlasStory('waiting-unknown-kind');
/** A sub-agent stopped at max-tokens, the root turn completed: no note, the answer is whole. */
export const SubagentTurnEnd = atlasStory('subagent-turn-end', async (canvasElement) => {
  await expect(within(canvasElement).queryByRole('note')).toBeNull();
});
export const ToolError = atlasStory('tool-error');
export const UnknownEventTypes = atlasStory('unknown-event-types');
export const Truncated = atlasStory('truncated');
export const DroppedMidStream = atlasStory('dropped-mid-stream');
export const DuplicateAfterResume = atlasStory('duplicate-after-resume');
export const StalledHeartbeat = atlasStory('stalled-heartbeat');
export const MalformedEvent = atlasStory('malformed-event');
export const CompletedWithoutText = atlasStory('completed-without-text');
export const TurnEndWithoutKind = atlasStory('turn-end-without-kind');
export const EventAfterCompleted = atlasStory('event-after-completed', async (canvasElement) => {
  // The outcome received before the protocol error stays visible, marked as such; nothing claims "no result".
  const received = canvasElement.querySelector('[data-kestrel-part="received-outcome"]');
  await expect(received?.getAttribute('data-status')).toBe('COMPLETED');
  await expect(canvasElement.textContent).not.toMatch(/no (result|outcome)/i);
});
export const EventNameMismatch = atlasStory('event-name-mismatch');
