import type { JsonRunOptions, RunClient, RunCompletedEvent } from '@kestrel/core';
import { mutationOptions } from '@tanstack/react-query';
import { kestrelKeys } from './kestrel-keys.js';
import { writeRunResult } from './write-run-result.js';

/** What `mutate` takes: the input, or the full JSON-route options. */
export type RunMutationVariables = string | JsonRunOptions;

/**
 * A non-streaming run through the JSON route (`Accept: application/json`) as a TanStack mutation. Its data is
 * the terminal `run.completed` event, for every output status: branch on `data.output.status`. Transport and
 * protocol failures are the mutation's `error` (a `RunClientError`). The result is also written to the cache under
 * `kestrelKeys.result(runId)`.
 *
 * @example
 * const run = useMutation(runMutationOptions(client));
 * run.mutate({ input: 'Extract the invoice', responseFormat });
 * const output = run.data?.output;
 * if (output?.status !== 'COMPLETED') return <p>{output?.status ?? run.status}</p>;
 * // Two separate outputs: the text, and the structured payload when one was asked for.
 * const payload = readPayload(output, invoiceSchema);
 * return <><p>{output.assistantText}</p>{payload.status === 'valid' && <InvoiceTable invoice={payload.value} />}
 *   {payload.status === 'invalid' && <p role="alert">The structured result does not match the schema.</p>}</>;
 */
export function runMutationOptions(client: RunClient) {
  return mutationOptions<RunCompletedEvent, Error, RunMutationVariables>({
    mutationKey: kestrelKeys.jsonRun(),
    mutationFn: (variables) => client.run(typeof variables === 'string' ? { input: variables } : variables),
    onSuccess: (event, _variables, _onMutateResult, context) => writeRunResult(context.client, event),
  });
}
