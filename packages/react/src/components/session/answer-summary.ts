import type { InteractionAnswer, SessionQuestion } from '@kestrel/core';
import type { KestrelLabels } from '../labels.js';

/**
 * The person's answer as one line of text, as they would read it back (text, never HTML): in the question's own
 * words when it is known (the labels of the options chosen and of the form's fields), else as sent (option ids,
 * field names).
 */
export function answerSummary(answer: InteractionAnswer, labels: KestrelLabels, question?: SessionQuestion): string {
  const interaction = question?.interaction;
  switch (answer.kind) {
    case 'approval': {
      const decision = labels.sessionAnswerApproval(answer.approved);
      return answer.comment === undefined || answer.comment === '' ? decision : `${decision}: ${answer.comment}`;
    }
    case 'choice': {
      const options = interaction?.kind === 'choice' ? interaction.options : [];
      return answer.selected.map((id) => options.find((option) => option.id === id)?.label || id).join(', ');
    }
    case 'text':
      return answer.text;
    case 'form': {
      const fields = interaction?.kind === 'form' ? interaction.fields : [];
      return Object.entries(answer.values)
        .map(([name, value]) => {
          const label = fields.find((field) => field.name === name)?.label || name;
          return `${label}: ${typeof value === 'boolean' ? labels.sessionAnswerYesNo(value) : String(value)}`;
        })
        .join('; ');
    }
    default:
      return answer satisfies never;
  }
}
