import type { Interaction, InteractionAnswer } from '@kestrel/core';
import type { Locator } from 'playwright-core';

/** Answers an interaction through the prompt's own controls, as a person would. */
export async function answerInteraction(
  prompt: Locator,
  interaction: Interaction,
  answer: InteractionAnswer,
): Promise<void> {
  switch (answer.kind) {
    case 'approval':
      if (answer.comment !== undefined) await prompt.getByRole('textbox').fill(answer.comment);
      await prompt.getByRole('button', { name: answer.approved ? 'Approve' : 'Reject' }).click();
      return;
    case 'choice': {
      const options = interaction.kind === 'choice' ? interaction.options : [];
      for (const id of answer.selected) {
        const label = options.find((option) => option.id === id)?.label ?? id;
        await prompt.getByLabel(label, { exact: true }).check();
      }
      break;
    }
    case 'text':
      await prompt.getByRole('textbox').fill(answer.text);
      break;
    case 'form': {
      const fields = interaction.kind === 'form' ? interaction.fields : [];
      for (const field of fields) {
        const value = answer.values[field.name];
        if (value === undefined) continue;
        const control = prompt.getByLabel(field.label);
        if (field.type === 'boolean') await control.setChecked(value === true);
        else if (field.type === 'enum') await control.selectOption(String(value));
        else await control.fill(String(value));
      }
      break;
    }
    default:
      return answer satisfies never;
  }
  await prompt.getByRole('button', { name: 'Send answer' }).click();
}
