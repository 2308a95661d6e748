import type { InteractionAnswer } from '@kestrel/core';
import type { KestrelLabels } from '../labels.js';

/** The person's answer as one line of text, as they would read it back (text, never HTML). */
export function answerSummary(answer: InteractionAnswer, labels: KestrelLabels): string {
  switch (answer.kind) {
    case 'approval': {
      const decision = labels.sessionAnswerApproval(answer.approved);
      return answer.comment === undefined || answer.comment === '' ? decision : `${decision}: ${answer.comment}`;
    }
    case 'choice':
      return answer.selected.join(', ');
    case 'text':
      return answer.text;
    case 'form':
      return Object.entries(answer.values)
        .map(([field, value]) => `${field}: ${String(value)}`)
        .join('; ');
    default:
      return answer satisfies never;
  }
}
