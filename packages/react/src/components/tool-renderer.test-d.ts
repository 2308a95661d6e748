import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { toolRenderer, type ToolCallView, type ToolRenderers } from './tool-renderer.js';

describe('toolRenderer', () => {
  it('gives render the input and output types its schemas produce, by status', () => {
    toolRenderer({
      input: z.object({ query: z.string() }),
      output: z.array(z.object({ title: z.string() })),
      render: (call) => {
        expectTypeOf(call.input).toEqualTypeOf<{ query: string }>();
        if (call.status === 'succeeded') expectTypeOf(call.output).toEqualTypeOf<{ title: string }[]>();
        if (call.status === 'running') expectTypeOf(call.output).toEqualTypeOf<undefined>();
        // A failed call's output is the tool's error: never checked against the output schema.
        if (call.status === 'failed') expectTypeOf(call.output).toEqualTypeOf<unknown>();
        return null;
      },
    });
  });

  it('passes values without a schema as unknown', () => {
    toolRenderer({
      render: (call) => {
        expectTypeOf(call).toEqualTypeOf<ToolCallView>();
        expectTypeOf(call.input).toEqualTypeOf<unknown>();
        return null;
      },
    });
  });

  it('fits typed renderers into one record, and rejects a render that reads a field the schema does not have', () => {
    const search = toolRenderer({ input: z.object({ query: z.string() }), render: (call) => call.input.query });
    expectTypeOf({ search }).toExtend<ToolRenderers>();
    toolRenderer({
      input: z.object({ query: z.string() }),
      // @ts-expect-error: `limit` is not in the input schema
      render: (call) => call.input.limit,
    });
  });
});
