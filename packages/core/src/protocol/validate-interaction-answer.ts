import { interactionAnswerSchema } from './schemas.js';
import { toProtocolIssues, type IssuePath } from './protocol-error.js';
import { protocolParseOptions } from './protocol-error-map.js';
import type { FormField, Interaction, InteractionAnswer } from './types.js';

/**
 * What an answer issue is, so a UI can word it in its own language (`message` is English): `required` (a required
 * form field left empty), `not-text`/`not-number`/`not-boolean`/`not-an-option` (a form value of the wrong kind),
 * `choose-one`, `choose-exactly-one`, `answer-required` (an empty text answer), and `invalid` for the rest (a value
 * a person cannot produce through the kit's prompt: an unknown option or field, a wrong kind, a malformed body).
 */
export type AnswerIssueCode =
  | 'required'
  | 'not-text'
  | 'not-number'
  | 'not-boolean'
  | 'not-an-option'
  | 'choose-one'
  | 'choose-exactly-one'
  | 'answer-required'
  | 'invalid';

/** One reason an answer does not fit its interaction; `path` points into the answer (e.g. `['values', 'email']`). */
export interface AnswerIssue {
  readonly path: IssuePath;
  /** In English; word `code` (with `field` and `options`) for another language. */
  readonly message: string;
  /** What the issue is; absent on issues of the answer's shape (read `message`). */
  readonly code?: AnswerIssueCode;
  /** The form field's label (or name) the issue is about. */
  readonly field?: string;
  /** The allowed values, for `not-an-option`. */
  readonly options?: readonly string[];
}

/** Result of `validateInteractionAnswer`: the checked answer to send, or the issues to show next to each field. */
export type AnswerValidation =
  | { readonly valid: true; readonly answer: InteractionAnswer }
  | { readonly valid: false; readonly issues: readonly AnswerIssue[] };

/** Thrown when an answer that does not fit its interaction would be sent. */
export class InteractionAnswerError extends Error {
  override readonly name = 'InteractionAnswerError';
  readonly kind = 'invalid-answer' as const;
  readonly issues: readonly AnswerIssue[];
  constructor(issues: readonly AnswerIssue[]) {
    super(`Invalid answer: ${issues.map((issue) => issue.message).join('; ')}`);
    this.issues = issues;
  }
}

function checkField(field: FormField, value: unknown): Omit<AnswerIssue, 'path'> | undefined {
  const label = field.label || field.name;
  const issue = (code: AnswerIssueCode, message: string) => ({ code, field: label, message: `${label} ${message}` });
  if (value === undefined || value === '') return field.required ? issue('required', 'is required') : undefined;
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? undefined : issue('not-text', 'must be text');
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : issue('not-number', 'must be a number');
    case 'boolean':
      return typeof value === 'boolean' ? undefined : issue('not-boolean', 'must be true or false');
    case 'enum': {
      const options = field.options ?? [];
      return typeof value === 'string' && options.includes(value)
        ? undefined
        : { ...issue('not-an-option', `must be one of: ${options.join(', ')}`), options };
    }
    default:
      return field.type satisfies never;
  }
}

function issuesFor(interaction: Interaction, answer: InteractionAnswer): AnswerIssue[] {
  if (interaction.kind === 'unsupported') {
    return [
      {
        path: ['kind'],
        code: 'invalid',
        message: `Interactions of kind "${interaction.originalKind}" cannot be answered here`,
      },
    ];
  }
  if (answer.kind !== interaction.kind) {
    return [
      { path: ['kind'], code: 'invalid', message: `Expected a "${interaction.kind}" answer, got "${answer.kind}"` },
    ];
  }
  switch (interaction.kind) {
    case 'approval':
      return [];
    case 'text':
      return answer.kind === 'text' && answer.text.trim() === ''
        ? [{ path: ['text'], code: 'answer-required', message: 'An answer is required' }]
        : [];
    case 'choice': {
      if (answer.kind !== 'choice') return [];
      const issues: AnswerIssue[] = [];
      const known = new Set(interaction.options.map((option) => option.id));
      answer.selected.forEach((id, index) => {
        if (!known.has(id)) {
          issues.push({ path: ['selected', index], code: 'invalid', message: `"${id}" is not one of the options` });
        }
      });
      if (new Set(answer.selected).size !== answer.selected.length) {
        issues.push({ path: ['selected'], code: 'invalid', message: 'An option is selected twice' });
      }
      if (answer.selected.length === 0)
        issues.push({ path: ['selected'], code: 'choose-one', message: 'Choose an option' });
      else if (!interaction.multiple && answer.selected.length > 1) {
        issues.push({ path: ['selected'], code: 'choose-exactly-one', message: 'Choose exactly one option' });
      }
      return issues;
    }
    case 'form': {
      if (answer.kind !== 'form') return [];
      const issues: AnswerIssue[] = [];
      const names = new Set(interaction.fields.map((field) => field.name));
      for (const field of interaction.fields) {
        // Own keys only: a field named `constructor` or `toString` left empty must not read Object.prototype's.
        const issue = checkField(
          field,
          Object.hasOwn(answer.values, field.name) ? answer.values[field.name] : undefined,
        );
        if (issue !== undefined) issues.push({ path: ['values', field.name], ...issue });
      }
      for (const name of Object.keys(answer.values)) {
        if (!names.has(name)) {
          issues.push({ path: ['values', name], code: 'invalid', message: `"${name}" is not a field of this form` });
        }
      }
      return issues;
    }
    default:
      return interaction satisfies never;
  }
}

/**
 * Parses the shape of an answer body (any kind, no interaction needed), as a proxy does before forwarding it. Unlike
 * a bare `interactionAnswerSchema.safeParse`, a form field named `__proto__` is kept: the record parse assigns each
 * key, and assigning `__proto__` sets no key, so it would silently vanish from the answer.
 */
export function parseInteractionAnswerShape(answer: unknown): ReturnType<typeof interactionAnswerSchema.safeParse> {
  const shape = interactionAnswerSchema.safeParse(answer, protocolParseOptions);
  if (!shape.success) return shape;
  const raw = (answer as { values?: object }).values;
  if (shape.data.kind === 'form' && Object.hasOwn(raw!, '__proto__')) {
    Object.defineProperty(shape.data.values, '__proto__', Object.getOwnPropertyDescriptor(raw, '__proto__')!);
  }
  return shape;
}

/**
 * Checks an answer against the interaction it answers, before it is sent.
 *
 * @example
 * const check = validateInteractionAnswer(output.interaction, { kind: 'choice', selected: ['a'] });
 * if (!check.valid) showErrors(check.issues);
 */
export function validateInteractionAnswer(interaction: Interaction, answer: unknown): AnswerValidation {
  const shape = parseInteractionAnswerShape(answer);
  if (!shape.success) {
    // An empty text answer fails the shape (text is non-empty): say so as the issue a person can fix.
    const given = typeof answer === 'object' && answer !== null ? (answer as { kind?: unknown; text?: unknown }) : {};
    const empty = given.kind === 'text' && given.text === '';
    const issues: AnswerIssue[] = empty
      ? [{ path: ['text'], code: 'answer-required', message: 'An answer is required' }]
      : toProtocolIssues(shape.error.issues);
    return { valid: false, issues };
  }
  const issues = issuesFor(interaction, shape.data);
  return issues.length === 0 ? { valid: true, answer: shape.data } : { valid: false, issues };
}
