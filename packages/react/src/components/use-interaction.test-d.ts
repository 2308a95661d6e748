import type {
  ApprovalAnswer,
  ApprovalInteraction,
  ChoiceAnswer,
  FormAnswer,
  FormInteraction,
  InteractionAnswer,
} from '@kestrel/core';
import type { ReactNode } from 'react';
import { describe, expectTypeOf, it } from 'vitest';
import type { AnswerResult, InteractionController, RenderInteraction } from './use-interaction.js';

declare const waiting: InteractionController;

describe('InteractionController', () => {
  it('narrows the interaction and the answer it takes by kind', () => {
    switch (waiting.kind) {
      case 'approval':
        expectTypeOf(waiting.interaction).toEqualTypeOf<ApprovalInteraction>();
        expectTypeOf(waiting.answer).parameter(0).toEqualTypeOf<ApprovalAnswer>();
        expectTypeOf(waiting.answer).returns.toEqualTypeOf<Promise<AnswerResult>>();
        // @ts-expect-error an approval is not answered with a choice
        void waiting.answer({ kind: 'choice', selected: ['a'] });
        break;
      case 'choice':
        expectTypeOf(waiting.answer).parameter(0).toEqualTypeOf<ChoiceAnswer>();
        break;
      case 'form':
        expectTypeOf(waiting.interaction).toEqualTypeOf<FormInteraction>();
        expectTypeOf(waiting.answer).parameter(0).toEqualTypeOf<FormAnswer>();
        break;
      case 'text':
        break;
      case 'unsupported':
        // A kind this client does not know cannot be answered.
        expectTypeOf(waiting.answer).parameter(0).toEqualTypeOf<never>();
        break;
      default:
        waiting satisfies never;
    }
  });

  it('cannot be answered before its kind is known', () => {
    const answer: InteractionAnswer = { kind: 'approval', approved: true };
    // @ts-expect-error the union of every kind's answer function takes no answer until narrowed
    void waiting.answer(answer);
  });

  it('lets a renderer return undefined for the kit UI, or any React node', () => {
    expectTypeOf<RenderInteraction>().returns.toEqualTypeOf<ReactNode>();
    const only: RenderInteraction = (controller) => (controller.kind === 'approval' ? null : undefined);
    void only;
  });
});
