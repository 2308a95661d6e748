import { createScenarioRun, getScenario, invoiceSchema, type Invoice, type ScenarioRunOptions } from '@kestrel/testing';
import { useState, type ReactNode } from 'react';
import { de } from '../../../locales/de.js';
import { es } from '../../../locales/es.js';
import { fr } from '../../../locales/fr.js';
import { ja } from '../../../locales/ja.js';
import { defaultLabels } from '../../default-labels.js';
import { KestrelLabelsProvider, type KestrelLabels } from '../../labels.js';
import { RunView, type RunViewProps } from '../../run-view.js';
import { renderInvoice } from './invoice-table.js';
import { ocrRenderer, weatherRenderer } from './tool-renderers.js';

/** The clock stories show the expiry countdown against, so pictures stay the same from run to run. */
export const storyNow = () => Date.parse('2098-12-31T23:55:00Z');

/** The label sets a story can pick: English and the shipped locales. */
export const storyLocales: Record<StoryLocale, KestrelLabels> = { en: defaultLabels, de, fr, es, ja };
export type StoryLocale = 'en' | 'de' | 'fr' | 'es' | 'ja';

/** The scenarios' tools, typed: what the `toolRenderers` switch gives RunView. */
const storyTools = { 'ocr.extract': ocrRenderer, 'weather.forecast': weatherRenderer };

export interface ScenarioViewProps extends Pick<
  RunViewProps<Invoice>,
  'focusOnWait' | 'activityOpen' | 'renderText' | 'labels' | 'renderInteraction'
> {
  /** A shared scenario name (see `@kestrel/testing`). */
  readonly scenario: string;
  /** Freeze the run: see `createScenarioSource`; `resumed` plays it as a run resumed by id (no start input). */
  readonly freeze?: Pick<ScenarioRunOptions<Invoice>, 'upTo' | 'until' | 'then' | 'resumed'>;
  /** Give RunView the app's payload renderer (default true). */
  readonly renderPayload?: boolean;
  /** Another payload renderer than the invoice table (with `renderPayload`). */
  readonly payloadRenderer?: (invoice: Invoice) => ReactNode;
  /** Give RunView typed renderers for the scenarios' tools (default false: the generic tool items). */
  readonly toolRenderers?: boolean;
  /** The label set (default English). */
  readonly locale?: StoryLocale;
  /** `light` or `dark` pins theme.css on this story (`data-kestrel-theme`); `toolbar` follows the Theme toolbar. */
  readonly theme?: 'toolbar' | 'light' | 'dark';
  /** Writing direction of the view (`dir`): theme.css uses logical properties, so `rtl` mirrors it. */
  readonly dir?: 'ltr' | 'rtl';
  readonly rejectAnswer?: string;
  readonly respondDelayMs?: number;
  /** `respond` finds the question answered in another tab first (409 `interaction_answered`). */
  readonly answeredElsewhere?: boolean;
  readonly onAction?: ScenarioRunOptions<Invoice>['onAction'];
}

/**
 * RunView over a scenario played in memory (no network), frozen wherever the story wants it. Changing the
 * scenario (a control) plays the new one from the start.
 */
export function ScenarioView({ theme = 'toolbar', dir, locale = 'en', ...props }: ScenarioViewProps) {
  const view = (
    <KestrelLabelsProvider labels={storyLocales[locale]}>
      <ScenarioRunView key={props.scenario} {...props} />
    </KestrelLabelsProvider>
  );
  return theme === 'toolbar' && dir === undefined ? (
    view
  ) : (
    <div dir={dir} data-kestrel-theme={theme === 'toolbar' ? undefined : theme} lang={locale}>
      {view}
    </div>
  );
}

function ScenarioRunView({
  scenario: name,
  freeze,
  renderPayload = true,
  payloadRenderer = renderInvoice,
  toolRenderers = false,
  rejectAnswer,
  respondDelayMs,
  answeredElsewhere,
  onAction,
  ...view
}: ScenarioViewProps) {
  const [run] = useState(() => {
    const scenario = getScenario(name);
    return createScenarioRun<Invoice>(scenario, {
      ...freeze,
      payloadSchema: scenario.usesInvoiceSchema === true ? invoiceSchema : undefined,
      rejectAnswer,
      respondDelayMs,
      answeredElsewhere,
      onAction,
    });
  });
  return (
    <RunView
      run={run}
      renderPayload={renderPayload ? payloadRenderer : undefined}
      tools={toolRenderers ? storyTools : undefined}
      now={storyNow}
      {...view}
    />
  );
}
