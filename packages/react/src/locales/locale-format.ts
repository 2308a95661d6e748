import type { AnswerIssue, AnswerIssueCode, RunErrorKind } from '@kestrel/core';
import type { KestrelLabels } from '../components/labels.js';

/*
 * What the locale label sets share: plural forms by Intl.PluralRules, durations and dates by Intl. Only the
 * locales import this file, so none of it weighs on the main entry.
 */

/**
 * A locale's words for the answer issues a person can cause through the prompt, by code; `field` is the form
 * field's label, `options` the allowed values already joined as a list in the locale ("a, b or c").
 */
export type AnswerIssueWords = {
  readonly [C in Exclude<AnswerIssueCode, 'invalid'>]: (field: string, options: string) => string;
};

/**
 * `answerIssue` for a locale: the issue's code in the locale's words. Issues without a code, or `invalid` ones (an
 * answer the prompt cannot produce: a developer's mistake or a server's), keep the validator's English message.
 */
export function answerIssueIn(locale: string, words: AnswerIssueWords): KestrelLabels['answerIssue'] {
  const list = new Intl.ListFormat(locale, { type: 'disjunction' });
  return (issue: AnswerIssue) =>
    issue.code === undefined || issue.code === 'invalid'
      ? issue.message
      : words[issue.code](issue.field ?? '', list.format(issue.options ?? []));
}

/** One text per CLDR plural category of a locale; `other` is the one every locale has. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, (count: number) => string>> & {
  readonly other: (count: number) => string;
};

/** `count` in the form its locale's plural rules pick (e.g. French "1 appel", "0 appel", "2 appels"). */
export function plural(locale: string, forms: PluralForms): (count: number) => string {
  const rules = new Intl.PluralRules(locale);
  return (count) => (forms[rules.select(count)] ?? forms.other)(count);
}

const units = ['day', 'hour', 'minute', 'second'] as const;

/**
 * Time left as the two largest units in the locale's own abbreviations ("2 Std. 5 Min.", "2 時間 5 分"), which
 * Intl also puts in the right plural form. Countdowns are shown for at most three days, so days are the top unit.
 */
export function remainingFormatter(locale: string, separator = ' '): (ms: number) => string {
  const formats = units.map((unit) => new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }));
  return (ms) => {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const amounts = [Math.floor(s / 86_400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60];
    const largest = amounts.findIndex((amount) => amount > 0);
    const first = largest === -1 ? units.length - 1 : largest;
    return amounts
      .slice(first, first + 2)
      .map((amount, index) => formats[first + index]?.format(amount))
      .join(separator);
  };
}

/** A deadline as the locale writes a date and time ("31. Dezember 2098 um 23:55"). */
export function dateFormatter(locale: string): (date: Date) => string {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' });
  return (date) => format.format(date);
}

/** `errorTitle` from one title per error kind; an HTTP failure adds its status code. */
export function errorTitles(titles: Record<RunErrorKind, string>): KestrelLabels['errorTitle'] {
  return (kind, httpStatus) =>
    kind === 'http' && httpStatus !== null ? `${titles.http} (HTTP ${httpStatus})` : titles[kind];
}

/** `errorProtocolWhere` from the locale's words for "event" and "field" ("event run.text, seq 4, field delta"). */
export function protocolWhere(
  words: { readonly event: string; readonly field: string },
  separator = ', ',
): KestrelLabels['errorProtocolWhere'] {
  return ({ seq, field, eventType }) =>
    [
      eventType === null ? null : `${words.event} ${eventType}`,
      seq === null ? null : `seq ${seq}`,
      field === '' ? null : `${words.field} ${field}`,
    ]
      .filter((part) => part !== null)
      .join(separator);
}
