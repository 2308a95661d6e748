import type { AnswerIssue, FormField, Interaction } from '@kestrel/core';

/** What a person has typed or picked so far, kept as typed (numbers stay strings until sent). */
export interface AnswerDraft {
  readonly comment: string;
  readonly selected: readonly string[];
  readonly text: string;
  readonly values: Readonly<Record<string, string | boolean>>;
}

export const emptyDraft: AnswerDraft = { comment: '', selected: [], text: '', values: {} };

/** What the draft holds for a form field: own keys only, so a field named `constructor` starts empty. */
export function draftValue(draft: AnswerDraft, name: string): string | boolean | undefined {
  return Object.hasOwn(draft.values, name) ? draft.values[name] : undefined;
}

function formValue(field: FormField, raw: string | boolean | undefined): string | number | boolean | undefined {
  if (field.type === 'boolean') return raw === true;
  if (typeof raw !== 'string' || raw === '') return undefined;
  if (field.type !== 'number') return raw;
  const number = Number(raw);
  // Keep unreadable input as text so validation names the field ("must be a number") instead of sending NaN.
  return Number.isFinite(number) ? number : raw;
}

/** The answer the draft stands for; `approved` only matters for approvals. Validate it before sending. */
export function draftToAnswer(interaction: Interaction, draft: AnswerDraft, approved: boolean): unknown {
  switch (interaction.kind) {
    case 'approval':
      return draft.comment.trim() === ''
        ? { kind: 'approval', approved }
        : { kind: 'approval', approved, comment: draft.comment };
    case 'choice':
      return { kind: 'choice', selected: [...draft.selected] };
    case 'text':
      return { kind: 'text', text: draft.text };
    case 'form': {
      const entries: [string, string | number | boolean][] = [];
      for (const field of interaction.fields) {
        const value = formValue(field, draftValue(draft, field.name));
        if (value !== undefined) entries.push([field.name, value]);
      }
      // fromEntries defines own keys: `values.__proto__ = x` would set the prototype and drop the field.
      return { kind: 'form', values: Object.fromEntries(entries) };
    }
    case 'unsupported':
      return undefined;
    default:
      return interaction satisfies never;
  }
}

/** Which control an issue belongs to: `field:<name>`, `selected`, `text`, `comment`, or `form` for the rest. */
export type AnswerIssueKey = `field:${string}` | 'selected' | 'text' | 'comment' | 'form';

/** The control an issue belongs to (see `AnswerIssueKey`). */
export function issueKey(issue: AnswerIssue): AnswerIssueKey {
  const [head, name] = issue.path;
  if (head === 'values' && typeof name === 'string') return `field:${name}`;
  if (head === 'selected' || head === 'text' || head === 'comment') return head;
  return 'form';
}

/** The first issue per control. */
export function issuesByKey(issues: readonly AnswerIssue[]): Partial<Record<AnswerIssueKey, AnswerIssue>> {
  const out: Partial<Record<AnswerIssueKey, AnswerIssue>> = {};
  for (const issue of issues) out[issueKey(issue)] ??= issue;
  return out;
}
