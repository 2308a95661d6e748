import { createScenarioRun, createScenarioSource, getScenario, invoiceSchema, scenarios } from '@kestrel/testing';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../components/axe-check.test-helper.js';
import { InteractionPrompt } from '../components/interaction-prompt.js';
import { defaultLabels } from '../components/default-labels.js';
import { KestrelLabelsProvider, type KestrelLabels } from '../components/labels.js';
import { RunActivity } from '../components/run-activity.js';
import { RunView } from '../components/run-view.js';
import { de } from './de.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';

const locales = { de, fr, es, ja } as const;
// French and Intl put (narrow) no-break spaces in numbers and units: compare them as spaces.
const spaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('the locale label sets', () => {
  it.each(Object.entries(locales))('%s has every label, each of the kind the English default is', (_name, labels) => {
    const kinds = (set: KestrelLabels) =>
      Object.fromEntries(Object.entries(set).map(([key, value]) => [key, typeof value]));
    expect(kinds(labels)).toEqual(kinds(defaultLabels));
    const english = new Set(Object.values(defaultLabels).filter((value) => typeof value === 'string'));
    // A forgotten translation would be the English text copied over ("Action" is the same word in French).
    expect(
      Object.values(labels).filter((value) => typeof value === 'string' && english.has(value) && value !== 'Action'),
    ).toEqual([]);
  });

  it('counts tool calls in the plural form of each language', () => {
    expect([0, 1, 2].map(de.activityToolCount)).toEqual(['0 Werkzeugaufrufe', '1 Werkzeugaufruf', '2 Werkzeugaufrufe']);
    // French puts 0 in the singular, and a million takes "d’".
    expect([0, 1, 2, 1_000_000].map((count) => spaces(fr.activityToolCount(count)))).toEqual([
      '0 appel d’outil',
      '1 appel d’outil',
      '2 appels d’outil',
      '1 000 000 d’appels d’outil',
    ]);
    expect([1, 2, 1_000_000].map(es.activityToolCount)).toEqual([
      '1 llamada a herramienta',
      '2 llamadas a herramientas',
      '1.000.000 de llamadas a herramientas',
    ]);
    expect([1, 2].map(ja.activityToolCount)).toEqual(['ツール呼び出し 1 件', 'ツール呼び出し 2 件']);
  });

  it('writes time left in the units and plural forms of each language', () => {
    const left = (2 * 3600 + 5 * 60) * 1000;
    expect([de, fr, es, ja].map((labels) => spaces(labels.expiresIn(labels.formatRemaining(left))))).toEqual([
      'Läuft ab in 2 Std. 5 Min.',
      'Expire dans 2 h 5 min',
      'Caduca en 2 h 5 min',
      '残り 2 時間 5 分',
    ]);
    expect(de.formatRemaining(1000)).toBe('1 Sek.');
    expect(de.formatRemaining(0)).toBe('0 Sek.');
  });

  it('writes an expiry date as each language writes dates', () => {
    const deadline = new Date('2099-01-01T12:00:00Z');
    const local = (locale: string) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(deadline);
    expect(de.expiresOn(deadline)).toBe(`Läuft ab am ${local('de')}`);
    expect(de.expiresOn(deadline)).toMatch(/Januar 2099/);
    expect(fr.expiresOn(deadline)).toMatch(/^Expire le .*janvier 2099/);
    expect(es.expiresOn(deadline)).toMatch(/^Caduca el .*de enero de 2099/);
    expect(ja.expiresOn(deadline)).toMatch(/^期限：2099年1月/);
  });

  it.each(Object.entries(locales))(
    'renders every shared scenario in %s without axe violations',
    async (_name, labels) => {
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      for (const scenario of scenarios) {
        const run = createScenarioRun(scenario, {
          payloadSchema: scenario.usesInvoiceSchema === true ? invoiceSchema : undefined,
        });
        const { container, unmount } = render(
          <KestrelLabelsProvider labels={labels}>
            <RunView run={run} focusOnWait={false} activityOpen />
          </KestrelLabelsProvider>,
        );
        await expectNoAxeViolations(container);
        unmount();
      }
      vi.restoreAllMocks();
    },
  );

  it('translates a whole view: the approval, its buttons and the status', () => {
    render(
      <KestrelLabelsProvider labels={de}>
        <RunView run={createScenarioRun(getScenario('waiting-approval'))} focusOnWait={false} />
      </KestrelLabelsProvider>,
    );
    expect(screen.getByRole('button', { name: 'Genehmigen' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ablehnen' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Wartet auf Ihre Antwort');
  });

  it("words a form's issues in the language of the view, not the validator's English", async () => {
    const user = userEvent.setup();
    const run = { ...createScenarioSource(getScenario('waiting-form')), respond: vi.fn(() => Promise.resolve()) };
    render(
      <KestrelLabelsProvider labels={de}>
        <InteractionPrompt run={run} />
      </KestrelLabelsProvider>,
    );
    await user.type(screen.getByRole('textbox', { name: /Amount \(EUR\)/ }), 'twenty');
    await user.click(screen.getByRole('button', { name: 'Antwort senden' }));
    expect(run.respond).not.toHaveBeenCalled();
    const messageOf = (name: RegExp) => {
      const element = screen.getByRole(name.source.startsWith('Category') ? 'combobox' : 'textbox', { name });
      return document.getElementById((element.getAttribute('aria-describedby') ?? '').split(' ').at(-1) ?? '')
        ?.textContent;
    };
    expect(messageOf(/Project code/)).toBe('Project code ist erforderlich');
    expect(messageOf(/Amount \(EUR\)/)).toBe('Amount (EUR) muss eine Zahl sein');
    expect(messageOf(/Category/)).toMatch(/Category ist erforderlich/);
  });

  it('words a choice and an enum issue in each language, joining the options as that language lists them', () => {
    const enumIssue = {
      path: ['values', 'size'],
      code: 'not-an-option',
      field: 'Size',
      options: ['S', 'M', 'L'],
      message: '',
    } as const;
    expect(de.answerIssue(enumIssue)).toBe('Size muss eines davon sein: S, M oder L');
    expect(fr.answerIssue(enumIssue)).toBe('Size doit être l’une de ces valeurs : S, M ou L');
    expect(es.answerIssue({ path: ['selected'], code: 'choose-one', message: 'Choose an option' })).toBe(
      'Elija una opción',
    );
    expect(ja.answerIssue({ path: ['text'], code: 'answer-required', message: 'An answer is required' })).toBe(
      '回答を入力してください',
    );
    // An issue the prompt cannot cause keeps the validator's message.
    expect(de.answerIssue({ path: ['kind'], code: 'invalid', message: 'Expected a "text" answer, got "form"' })).toBe(
      'Expected a "text" answer, got "form"',
    );
  });

  it('says who cancelled and the reason in the language of the view', () => {
    const { container } = render(<RunView run={createScenarioRun(getScenario('cancelled'))} labels={fr} />);
    const outcome = container.querySelector('[data-kestrel-part="outcome"]');
    expect([...(outcome?.querySelectorAll('p') ?? [])].map((line) => line.textContent)).toEqual([
      'Vous avez annulé l’exécution',
      'Raison : Stopped by the user',
    ]);
  });

  it('summarises activity in the language of the view', () => {
    render(<RunActivity run={createScenarioRun(getScenario('tool-error')).source} labels={ja} />);
    expect(screen.getByRole('button', { name: /アクティビティ/ }).textContent).toBe(
      'アクティビティ (ツール呼び出し 2 件)',
    );
  });
});
