import type { Meta, StoryObj } from '@storybook/react-vite';
import { scenarios, type Scenario, type ScenarioRunOptions } from '@kestrel/testing';
import { expect } from 'storybook/test';
import type { Invoice } from '@kestrel/testing';
import { ScenarioView } from './support/scenario-view.js';

interface Tile {
  readonly key: string;
  readonly title: string;
  readonly scenario: string;
  readonly freeze?: Pick<ScenarioRunOptions<Invoice>, 'upTo' | 'until' | 'then'>;
  readonly renderPayload?: boolean;
}

const extraTiles: readonly Tile[] = [
  {
    key: 'streaming',
    title: 'Streaming',
    scenario: 'completed-payload',
    freeze: { until: (state) => state.draftText.split(' ').length > 8 },
  },
  {
    key: 'reconnecting',
    title: 'Reconnecting',
    scenario: 'dropped-mid-stream',
    freeze: { until: (state) => state.phase === 'reconnecting' },
  },
  {
    key: 'detached',
    title: 'Detached',
    scenario: 'completed-text',
    freeze: { upTo: 12, then: [{ type: 'client/detached' }] },
  },
  { key: 'unrendered', title: 'Payload without a renderer', scenario: 'completed-payload', renderPayload: false },
];

const tiles: readonly Tile[] = [
  ...extraTiles,
  ...scenarios.map((scenario: Scenario) => ({ key: scenario.name, title: scenario.title, scenario: scenario.name })),
];

/** Every state at once, for designers and reviewers: scan the grid for anything that reads wrong. */
function AllStates() {
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(min(340px, 100%), 1fr))',
        gap: '1rem',
        alignItems: 'start',
      }}
    >
      {tiles.map((tile) => (
        <figure key={tile.key} style={{ margin: 0 }} data-tile={tile.key}>
          <figcaption style={{ fontFamily: 'system-ui, sans-serif', fontWeight: 600, marginBottom: '0.35rem' }}>
            {tile.title}
          </figcaption>
          <ScenarioView
            scenario={tile.scenario}
            freeze={tile.freeze}
            renderPayload={tile.renderPayload}
            focusOnWait={false}
          />
        </figure>
      ))}
    </div>
  );
}

const meta = {
  title: 'Atlas/All states',
  component: AllStates,
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof AllStates>;

export default meta;

export const SideBySide: StoryObj<typeof meta> = {
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelectorAll('[data-kestrel-run]')).toHaveLength(tiles.length);
  },
};

/** The same in the dark scheme of theme.css; the a11y check covers its contrast too. */
export const SideBySideDark: StoryObj<typeof meta> = { ...SideBySide, globals: { theme: 'dark' } };
