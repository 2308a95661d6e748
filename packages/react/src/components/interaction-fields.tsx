import type {
  ApprovalInteraction,
  ChoiceInteraction,
  FormField,
  FormInteraction,
  TextInteraction,
} from '@kestrel/core';
import { draftValue, type AnswerDraft } from './answer-draft.js';
import type { RunLabels } from './labels.js';

export interface FieldsProps<I> {
  readonly interaction: I;
  readonly draft: AnswerDraft;
  readonly update: (change: Partial<AnswerDraft>) => void;
  /** Validation or rejection messages by control key (see `issueKey`). */
  readonly errors: Readonly<Record<string, string>>;
  /** Prefix for element ids inside this prompt. */
  readonly baseId: string;
  readonly promptId: string;
  readonly labels: RunLabels;
}

/** Server-chosen names and option ids may hold spaces, which would split an id list like aria-describedby. */
const idPart = (value: string) => value.replace(/[^a-zA-Z0-9_-]/g, '_');

export const errorId = (baseId: string, key: string) => `${baseId}-error-${idPart(key)}`;

/** The message shown next to a control; its id is what the control's `aria-describedby` points at. */
export function FieldError({
  baseId,
  errorKey,
  errors,
}: {
  baseId: string;
  errorKey: string;
  errors: Readonly<Record<string, string>>;
}) {
  const message = errors[errorKey];
  return message === undefined ? null : (
    <p id={errorId(baseId, errorKey)} data-kestrel-field-error={errorKey}>
      {message}
    </p>
  );
}

function invalidProps(baseId: string, key: string, errors: Readonly<Record<string, string>>, describedBy?: string) {
  const invalid = errors[key] !== undefined;
  const ids = [describedBy, invalid ? errorId(baseId, key) : undefined].filter((id) => id !== undefined).join(' ');
  return { 'aria-invalid': invalid || undefined, 'aria-describedby': ids === '' ? undefined : ids };
}

type Primitive = string | number | boolean;

function isPrimitive(value: unknown): value is Primitive {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

export function ApprovalFields({
  interaction,
  draft,
  update,
  errors,
  baseId,
  labels,
}: FieldsProps<ApprovalInteraction>) {
  const details = interaction.details;
  // Only flat, primitive details are listed; anything deeper is the app's business to show.
  const entries =
    typeof details === 'object' && details !== null && !Array.isArray(details)
      ? Object.entries(details).filter((entry): entry is [string, Primitive] => isPrimitive(entry[1]))
      : [];
  return (
    <>
      <p data-kestrel-requested-action="">
        {labels.action}: <code>{interaction.action}</code>
      </p>
      {entries.length === 0 ? null : (
        <dl data-kestrel-details="">
          {entries.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>{String(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      <label htmlFor={`${baseId}-comment`}>{labels.comment}</label>
      <textarea
        id={`${baseId}-comment`}
        name="comment"
        value={draft.comment}
        onChange={(event) => update({ comment: event.target.value })}
        {...invalidProps(baseId, 'comment', errors)}
      />
      <FieldError baseId={baseId} errorKey="comment" errors={errors} />
    </>
  );
}

export function ChoiceFields({ interaction, draft, update, errors, baseId, promptId }: FieldsProps<ChoiceInteraction>) {
  const multiple = interaction.multiple === true;
  const toggle = (id: string, checked: boolean) => {
    if (!multiple) return update({ selected: [id] });
    const rest = draft.selected.filter((selected) => selected !== id);
    update({ selected: checked ? [...rest, id] : rest });
  };
  return (
    <div
      role={multiple ? 'group' : 'radiogroup'}
      aria-labelledby={promptId}
      data-kestrel-options={multiple ? 'multiple' : 'single'}
      {...invalidProps(baseId, 'selected', errors)}
    >
      {interaction.options.map((option, index) => {
        // By position: server ids may hold spaces or collide once cleaned.
        const id = `${baseId}-option-${index}`;
        return (
          <div key={option.id} data-kestrel-option={option.id}>
            <input
              type={multiple ? 'checkbox' : 'radio'}
              id={id}
              name={`${baseId}-choice`}
              value={option.id}
              checked={draft.selected.includes(option.id)}
              onChange={(event) => toggle(option.id, event.target.checked)}
              aria-describedby={option.description === undefined ? undefined : `${id}-description`}
            />
            <label htmlFor={id}>{option.label}</label>
            {option.description === undefined ? null : <span id={`${id}-description`}>{option.description}</span>}
          </div>
        );
      })}
      <FieldError baseId={baseId} errorKey="selected" errors={errors} />
    </div>
  );
}

export function TextFields({ interaction, draft, update, errors, baseId, promptId }: FieldsProps<TextInteraction>) {
  const props = {
    id: `${baseId}-text`,
    name: 'text',
    value: draft.text,
    placeholder: interaction.placeholder,
    'aria-labelledby': promptId,
    'aria-required': true,
    ...invalidProps(baseId, 'text', errors),
  };
  return (
    <>
      {interaction.multiline === true ? (
        <textarea {...props} onChange={(event) => update({ text: event.target.value })} />
      ) : (
        <input type="text" {...props} onChange={(event) => update({ text: event.target.value })} />
      )}
      <FieldError baseId={baseId} errorKey="text" errors={errors} />
    </>
  );
}

function FormFieldControl({
  field,
  draft,
  update,
  errors,
  baseId,
  labels,
}: Omit<FieldsProps<FormField>, 'interaction' | 'promptId'> & { field: FormField }) {
  const id = `${baseId}-field-${idPart(field.name)}`;
  const key = `field:${field.name}`;
  const raw = draftValue(draft, field.name);
  const set = (value: string | boolean) => update({ values: { ...draft.values, [field.name]: value } });
  const common = {
    id,
    name: field.name,
    'aria-required': field.required === true || undefined,
    ...invalidProps(baseId, key, errors),
  };
  const label = (
    <label htmlFor={id}>
      {field.label || field.name}
      {field.required === true ? (
        <>
          {' '}
          <span aria-hidden="true" data-kestrel-required="" title={labels.required}>
            *
          </span>
        </>
      ) : null}
    </label>
  );
  let control;
  switch (field.type) {
    case 'boolean':
      control = (
        <input type="checkbox" {...common} checked={raw === true} onChange={(event) => set(event.target.checked)} />
      );
      break;
    case 'enum':
      control = (
        <select {...common} value={typeof raw === 'string' ? raw : ''} onChange={(event) => set(event.target.value)}>
          <option value="">{labels.chooseOption}</option>
          {(field.options ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
      break;
    case 'number':
      // Free text with a numeric keyboard: the browser's number input would silently clear what it cannot parse.
      control = (
        <input
          type="text"
          inputMode="decimal"
          {...common}
          value={typeof raw === 'string' ? raw : ''}
          onChange={(event) => set(event.target.value)}
        />
      );
      break;
    case 'string':
      control = (
        <input
          type="text"
          {...common}
          value={typeof raw === 'string' ? raw : ''}
          onChange={(event) => set(event.target.value)}
        />
      );
      break;
    default:
      return field.type satisfies never;
  }
  return (
    <div data-kestrel-field={field.name} data-field-type={field.type}>
      {field.type === 'boolean' ? control : label}
      {field.type === 'boolean' ? label : control}
      <FieldError baseId={baseId} errorKey={key} errors={errors} />
    </div>
  );
}

export function FormFields({ interaction, ...props }: FieldsProps<FormInteraction>) {
  return (
    <>
      {interaction.fields.map((field) => (
        <FormFieldControl key={field.name} field={field} {...props} />
      ))}
    </>
  );
}
