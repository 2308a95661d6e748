import { z } from 'zod';
import { toolRenderer } from '../../tool-renderer.js';

/** The scenarios' OCR tool, typed: input `{ file }`, output `{ pages, characters }`. */
export const ocrRenderer = toolRenderer({
  input: z.object({ file: z.string() }),
  output: z.object({ pages: z.number(), characters: z.number() }),
  render: (call) => {
    switch (call.status) {
      case 'running':
        return <p>Reading {call.input.file}…</p>;
      case 'succeeded':
        return (
          <p>
            Read {call.input.file}: {call.output.pages} page(s), {call.output.characters} characters
          </p>
        );
      case 'failed':
        return <p>Could not read {call.input.file}</p>;
      default:
        return call satisfies never;
    }
  },
});

/** The same tool with an output schema the scenario's output does not match: shown with a notice, never rendered. */
export const strictOcrRenderer = toolRenderer({
  input: z.object({ file: z.string() }),
  output: z.object({ pages: z.string() }),
  render: (call) => <p>Pages: {call.status === 'succeeded' ? call.output.pages : '…'}</p>,
});

/** The weather tool of the `tool-error` scenario: its call fails, and the renderer says so in its own words. */
export const weatherRenderer = toolRenderer({
  input: z.object({ city: z.string() }),
  render: (call) =>
    call.status === 'failed' ? <p>No forecast for {call.input.city}</p> : <p>Forecast for {call.input.city}</p>,
});
