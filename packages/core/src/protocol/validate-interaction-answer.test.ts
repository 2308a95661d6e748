import { getScenario, scenarioEvents, scenarios } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { parseRunCompletedEvent } from './parse-run-event.js';
import { formatPath } from './protocol-error.js';
import type { Interaction } from './types.js';
import { InteractionAnswerError, validateInteractionAnswer } from './validate-interaction-answer.js';

/** The parsed interaction a shared WAITING scenario asks. */
function interactionOf(name: string): Interaction {
  const terminal = parseRunCompletedEvent(scenarioEvents(getScenario(name).steps).at(-1));
  if (terminal.output.status !== 'WAITING') throw new Error(`${name} does not end WAITING`);
  return terminal.output.interaction;
}

/** `path: message` pairs, so a test reads which field was refused and why. */
function refusals(interaction: Interaction, answer: unknown): string[] {
  const check = validateInteractionAnswer(interaction, answer);
  return check.valid ? [] : check.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
}

const approval = interactionOf('waiting-approval');
const single = interactionOf('waiting-choice-single');
const multiple = interactionOf('waiting-choice-multiple');
const text = interactionOf('waiting-text');
const form = interactionOf('waiting-form');
const unsupported = interactionOf('waiting-unknown-kind');

describe('validateInteractionAnswer with the shared scenarios', () => {
  const answerable = scenarios.filter((scenario) => scenario.continuation !== undefined);

  it.each(answerable.map((scenario) => [scenario.name, scenario] as const))(
    'accepts the answer of %s',
    (name, scenario) => {
      const check = validateInteractionAnswer(interactionOf(name), scenario.continuation?.answer);
      expect(check).toEqual({ valid: true, answer: scenario.continuation?.answer });
    },
  );

  it.each(answerable.map((scenario) => [scenario.name, scenario] as const))(
    'refuses the invalid answer of %s',
    (name, scenario) => {
      expect(scenario.invalidAnswer).toBeDefined();
      expect(validateInteractionAnswer(interactionOf(name), scenario.invalidAnswer).valid).toBe(false);
    },
  );
});

describe('approval', () => {
  it('accepts yes and no, with or without a comment', () => {
    expect(refusals(approval, { kind: 'approval', approved: true })).toEqual([]);
    expect(refusals(approval, { kind: 'approval', approved: false, comment: 'Not now' })).toEqual([]);
  });

  it('refuses a missing or non-boolean decision', () => {
    expect(refusals(approval, { kind: 'approval' })).toEqual([expect.stringMatching(/^approved: .*expected boolean/)]);
    expect(refusals(approval, { kind: 'approval', approved: 'yes' })).toEqual([expect.stringMatching(/^approved: /)]);
  });
});

describe('choice', () => {
  it('single: accepts exactly one known option', () => {
    expect(refusals(single, { kind: 'choice', selected: ['tp1351'] })).toEqual([]);
  });

  it('single: refuses two options', () => {
    expect(refusals(single, { kind: 'choice', selected: ['tp1351', 'fr8341'] })).toEqual([
      'selected: Choose exactly one option',
    ]);
  });

  it('refuses an empty selection', () => {
    expect(refusals(single, { kind: 'choice', selected: [] })).toEqual(['selected: Choose an option']);
    expect(refusals(multiple, { kind: 'choice', selected: [] })).toEqual(['selected: Choose an option']);
  });

  it('refuses unknown option ids, naming each one by index', () => {
    expect(refusals(multiple, { kind: 'choice', selected: ['finance', 'sports', 'weather'] })).toEqual([
      'selected[1]: "sports" is not one of the options',
      'selected[2]: "weather" is not one of the options',
    ]);
  });

  it('multiple: accepts several, refuses duplicates', () => {
    expect(refusals(multiple, { kind: 'choice', selected: ['finance', 'people', 'outlook'] })).toEqual([]);
    expect(refusals(multiple, { kind: 'choice', selected: ['finance', 'finance'] })).toEqual([
      'selected: An option is selected twice',
    ]);
  });

  it('refuses a selection that is not a list of ids', () => {
    expect(refusals(single, { kind: 'choice', selected: 'fr8341' })).toEqual([
      expect.stringMatching(/^selected: .*expected array/),
    ]);
  });
});

describe('text', () => {
  it('accepts non-empty text', () => {
    expect(refusals(text, { kind: 'text', text: 'Fix it' })).toEqual([]);
  });

  it.each(['', '   ', '\n\t'])('refuses empty or blank text %j', (value) => {
    expect(refusals(text, { kind: 'text', text: value })).toEqual([expect.stringMatching(/^text: /)]);
  });
});

describe('form', () => {
  const good = { project: 'ACME-7', amount: 23.4, billable: true, category: 'travel' };

  it('accepts typed values, optional ones may be left out', () => {
    expect(refusals(form, { kind: 'form', values: good })).toEqual([]);
    const { billable: _billable, ...withoutOptional } = good;
    expect(refusals(form, { kind: 'form', values: withoutOptional })).toEqual([]);
  });

  it('names each issue by code, field and options, so a UI can word it in its own language', () => {
    const check = validateInteractionAnswer(form, {
      kind: 'form',
      values: { project: '', amount: 'x', category: 'art' },
    });
    expect(check.valid ? [] : check.issues.map(({ code, field, options }) => ({ code, field, options }))).toEqual([
      { code: 'required', field: 'Project code', options: undefined },
      { code: 'not-number', field: 'Amount (EUR)', options: undefined },
      { code: 'not-an-option', field: 'Category', options: ['travel', 'meals', 'other'] },
    ]);
    const empty = validateInteractionAnswer(text, { kind: 'text', text: '' });
    expect(empty.valid ? null : empty.issues).toEqual([
      { path: ['text'], code: 'answer-required', message: 'An answer is required' },
    ]);
    const none = validateInteractionAnswer(single, { kind: 'choice', selected: [] });
    expect(none.valid ? null : none.issues.map((issue) => issue.code)).toEqual(['choose-one']);
  });

  it('refuses missing or empty required fields, by field', () => {
    expect(refusals(form, { kind: 'form', values: { billable: false, project: '' } })).toEqual([
      'values.project: Project code is required',
      'values.amount: Amount (EUR) is required',
      'values.category: Category is required',
    ]);
  });

  it('refuses values of the wrong type', () => {
    expect(refusals(form, { kind: 'form', values: { ...good, project: 7, amount: '23.40', billable: 'yes' } })).toEqual(
      [
        'values.project: Project code must be text',
        'values.amount: Amount (EUR) must be a number',
        'values.billable: Billable to client must be true or false',
      ],
    );
  });

  it('refuses an enum value outside its options', () => {
    expect(refusals(form, { kind: 'form', values: { ...good, category: 'lodging' } })).toEqual([
      'values.category: Category must be one of: travel, meals, other',
    ]);
  });

  it('refuses a field the form does not have', () => {
    expect(refusals(form, { kind: 'form', values: { ...good, tip: 2 } })).toEqual([
      'values.tip: "tip" is not a field of this form',
    ]);
  });

  it('refuses values that are not JSON scalars', () => {
    expect(refusals(form, { kind: 'form', values: { ...good, project: null } })).toEqual([
      expect.stringMatching(/^values\.project: /),
    ]);
  });
});

describe('kinds', () => {
  it('refuses any answer to an unsupported interaction', () => {
    expect(unsupported).toMatchObject({ kind: 'unsupported', originalKind: 'signature' });
    expect(refusals(unsupported, { kind: 'text', text: 'signed' })).toEqual([
      'kind: Interactions of kind "signature" cannot be answered here',
    ]);
  });

  it.each([
    [approval, { kind: 'text', text: 'yes' }, 'kind: Expected a "approval" answer, got "text"'],
    [single, { kind: 'approval', approved: true }, 'kind: Expected a "choice" answer, got "approval"'],
    [text, { kind: 'choice', selected: ['a'] }, 'kind: Expected a "text" answer, got "choice"'],
    [form, { kind: 'text', text: 'x' }, 'kind: Expected a "form" answer, got "text"'],
  ])('refuses an answer of another kind (%#)', (interaction, answer, message) => {
    expect(refusals(interaction, answer)).toEqual([message]);
  });

  it.each([undefined, null, 'yes', { kind: 'signature' }, { approved: true }])(
    'refuses a malformed answer %j',
    (answer) => {
      expect(refusals(approval, answer).length).toBeGreaterThan(0);
    },
  );
});

describe('InteractionAnswerError', () => {
  it('carries the issues and lists them in its message', () => {
    const check = validateInteractionAnswer(text, { kind: 'text', text: ' ' });
    if (check.valid) throw new Error('expected a refusal');
    const error = new InteractionAnswerError(check.issues);
    expect(error.kind).toBe('invalid-answer');
    expect(error.issues).toBe(check.issues);
    expect(error.message).toBe('Invalid answer: An answer is required');
  });
});

describe('form fields named like Object.prototype members', () => {
  const inherited: Interaction = {
    kind: 'form',
    id: 'int_proto',
    prompt: 'Odd names',
    fields: [
      { name: 'constructor', label: '', type: 'string' },
      { name: 'toString', label: '', type: 'number' },
      { name: '__proto__', label: '', type: 'string' },
      { name: 'hasOwnProperty', label: '', type: 'boolean' },
    ],
  };

  it('can be left empty when optional: nothing inherited is read as a value', () => {
    expect(refusals(inherited, { kind: 'form', values: {} })).toEqual([]);
  });

  it('are checked when filled, __proto__ included, and kept in the answer as own keys', () => {
    const answer = JSON.parse(
      '{"kind":"form","values":{"constructor":"c","toString":2,"__proto__":"p","hasOwnProperty":true}}',
    ) as unknown;
    const check = validateInteractionAnswer(inherited, answer);
    expect(check.valid).toBe(true);
    const values = check.valid && check.answer.kind === 'form' ? check.answer.values : {};
    expect(JSON.parse(JSON.stringify(values))).toEqual(
      JSON.parse('{"constructor":"c","toString":2,"__proto__":"p","hasOwnProperty":true}'),
    );
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
  });

  it('a required __proto__ field is required, and a wrong type in it is named', () => {
    const required: Interaction = {
      kind: 'form',
      id: 'int_proto',
      prompt: 'p',
      fields: [{ name: '__proto__', label: 'Proto', type: 'string', required: true }],
    };
    expect(refusals(required, { kind: 'form', values: {} })).toEqual(['values.__proto__: Proto is required']);
    expect(refusals(required, JSON.parse('{"kind":"form","values":{"__proto__":{"a":1}}}'))).toEqual([
      'values.__proto__: Proto must be text',
    ]);
  });
});
