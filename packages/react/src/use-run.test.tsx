import { invoiceSchema, scenarios, type Scenario } from '@kestrel/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { KestrelProvider, useKestrelClient } from './kestrel-provider.js';
import { describeModes } from './test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from './test-support/loopback-kestrel.test-helper.js';
import { createProbe, RunProbe } from './test-support/run-probe.test-helper.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

const view = () => screen.getByTestId('run');

async function settledView() {
  await waitFor(() => expect(['settled', 'error']).toContain(view().dataset.phase), { timeout: 5_000 });
  return view();
}

describeModes('useRun plays every shared scenario', ({ strict, options }) => {
  it('runs in the intended mode (StrictMode double-invokes effects)', () => {
    const effects: string[] = [];
    function Effect() {
      useEffect(() => {
        effects.push('mount');
        return () => void effects.push('unmount');
      }, []);
      return null;
    }
    render(<Effect />, options);
    expect(effects).toEqual(options.reactStrictMode ? ['mount', 'unmount', 'mount'] : ['mount']);
  });

  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario: Scenario) => {
    const probe = createProbe();
    const client = kestrel.client({ scenario: scenario.name });
    render(
      <KestrelProvider client={client}>
        <RunProbe probe={probe} options={scenario.usesInvoiceSchema ? { payloadSchema: invoiceSchema } : {}} />
      </KestrelProvider>,
      options,
    );
    expect(view().dataset.phase).toBe('idle');
    // An input per mode: played again, a scenario with a `retry` (failed-retryable-then-completed) plays that.
    act(() => probe.current?.start(`${scenario.input}${strict ? ' (strict)' : ''}`));
    const shown = await settledView();
    const { expected } = scenario;
    expect(shown.dataset.phase).toBe(expected.phase);
    if (expected.status !== undefined) expect(shown.dataset.status).toBe(expected.status);
    if (expected.errorKind !== undefined) expect(shown.dataset.error).toBe(expected.errorKind);
    if (expected.payload !== undefined) expect(shown.dataset.payload).toBe(expected.payload);
    if (expected.assistantText != null) expect(screen.getByTestId('answer').textContent).toBe(expected.assistantText);
    if (expected.phase === 'error' && expected.draftText !== undefined) {
      expect(screen.getByTestId('draft').textContent).toBe(expected.draftText);
    }
    if (expected.finishReason !== undefined) expect(probe.current?.state.finishReason).toBe(expected.finishReason);
  });
});

describeModes('useRun follows a run across attempts', ({ options }) => {
  it('answers WAITING and follows the new attempt to its outcome, posting the answer once', async () => {
    const scenario = scenarios.find((candidate) => candidate.name === 'waiting-choice-single')!;
    const continuation = scenario.continuation!;
    const settled: string[] = [];
    const probe = createProbe();
    const before = kestrel.requests.length;
    render(
      <KestrelProvider client={kestrel.client({ scenario: scenario.name })}>
        <RunProbe probe={probe} options={{ onSettled: (event) => settled.push(event.output.status) }} />
      </KestrelProvider>,
      options,
    );
    act(() => probe.current?.start(scenario.input));
    await waitFor(() => expect(view().dataset.status).toBe('WAITING'));
    expect(probe.current?.state.output).toMatchObject({ status: 'WAITING', interaction: { kind: 'choice' } });
    await act(() => probe.current!.respond(continuation.answer));
    await waitFor(() => expect(view().dataset.status).toBe('COMPLETED'));
    expect(view().dataset.attempt).toBe('2');
    expect(screen.getByTestId('answer').textContent).toBe(continuation.expected.assistantText);
    expect(settled).toEqual(['WAITING', 'COMPLETED']);
    // Every event of both attempts stays readable.
    const sent = kestrel.requests.slice(before);
    expect(sent.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual([
      '/v1/sessions/new/runs',
      expect.stringMatching(/^\/v1\/sessions\/[^/]+\/interactions\/int_choice_single$/),
    ]);
    expect(JSON.parse(sent[1]!.body)).toEqual(continuation.answer);
    expect(probe.current!.state.events.length).toBe(scenario.steps.length + continuation.steps.length);
  });

  it('refuses an invalid answer and keeps the WAITING state so the person can try again', async () => {
    const scenario = scenarios.find((candidate) => candidate.name === 'waiting-text')!;
    const probe = createProbe();
    render(
      <KestrelProvider client={kestrel.client({ scenario: scenario.name })}>
        <RunProbe probe={probe} />
      </KestrelProvider>,
      options,
    );
    act(() => probe.current?.start(scenario.input));
    await waitFor(() => expect(view().dataset.status).toBe('WAITING'));
    await expect(act(() => probe.current!.respond({ kind: 'text', text: '' }))).rejects.toThrow();
    expect(view().dataset.status).toBe('WAITING');
    await act(() => probe.current!.respond(scenario.continuation!.answer));
    await waitFor(() => expect(view().dataset.status).toBe('COMPLETED'));
  });

  it('sends exactly one start request per start, StrictMode or not', async () => {
    const probe = createProbe();
    const before = kestrel.sent('POST', /\/runs$/).length;
    render(
      <KestrelProvider client={kestrel.client({ scenario: 'completed-text' })}>
        <RunProbe probe={probe} />
      </KestrelProvider>,
      options,
    );
    act(() => probe.current?.start('Hello'));
    await settledView();
    expect(kestrel.sent('POST', /\/runs$/).length - before).toBe(1);
  });
});

describeModes('useRun resumes on mount', ({ options }) => {
  /** Mounts useRun as a page does after a reload, with the run id it kept. */
  function mountResuming(resumeRunId: string) {
    const probe = createProbe();
    render(
      <KestrelProvider client={kestrel.client()}>
        <RunProbe probe={probe} options={{ resumeRunId }} />
      </KestrelProvider>,
      options,
    );
    return probe;
  }

  it('re-attaches to a run that is still streaming after a reload, with one request', async () => {
    const scenario = scenarios.find((candidate) => candidate.name === 'completed-text')!;
    const first = kestrel.client({ scenario: scenario.name, delayMs: 15 }).start({ input: scenario.input });
    await waitFor(() => expect(first.getState().draftText).not.toBe(''));
    const runId = first.getState().runId!;
    first.detach(); // the page goes away; the run goes on on the server
    const before = kestrel.sent('GET', /\/events$/).length;
    mountResuming(runId);
    await waitFor(() => expect(view().dataset.status).toBe('COMPLETED'));
    expect(screen.getByTestId('answer').textContent).toBe(scenario.expected.assistantText);
    expect(kestrel.sent('GET', new RegExp(`/v1/runs/${runId}/events$`)).length).toBeGreaterThan(0);
    expect(kestrel.sent('GET', /\/events$/).length - before).toBe(1);
  });

  it.each(['', '..', '.'])(
    'takes a resumeRunId of %j (an empty `?run=`, a crafted link) as no run: idle, nothing sent, nothing thrown',
    async (runId) => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const before = kestrel.requests.length;
      const probe = mountResuming(runId);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(probe.current?.state.phase).toBe('idle');
      expect(kestrel.requests.length).toBe(before);
      // A crafted id is worth a word to the developer; an empty one is just no run.
      if (runId === '') expect(warn).not.toHaveBeenCalledWith(expect.stringContaining('resumeRunId is empty'));
      else expect(warn).toHaveBeenCalledWith(expect.stringContaining(`resumeRunId is "${runId}"`));
      warn.mockRestore();
    },
  );

  it('brings back the WAITING interaction after a reload', async () => {
    const scenario = scenarios.find((candidate) => candidate.name === 'waiting-approval')!;
    const first = kestrel.client({ scenario: scenario.name }).start({ input: scenario.input });
    const event = await first.result;
    const probe = mountResuming(event.runId);
    await waitFor(() => expect(view().dataset.status).toBe('WAITING'));
    expect(probe.current?.state.output).toMatchObject({ interaction: { id: 'int_approval', kind: 'approval' } });
    await act(() => probe.current!.respond(scenario.continuation!.answer));
    await waitFor(() => expect(view().dataset.status).toBe('COMPLETED'));
  });
});

describeModes('useRun cancel versus detach', ({ options }) => {
  const streaming = async (runOptions: Parameters<typeof RunProbe>[0]['options'] = {}) => {
    const probe = createProbe();
    const client = kestrel.client({ scenario: 'completed-text', delayMs: 15 });
    const rendered = render(
      <KestrelProvider client={client}>
        <RunProbe probe={probe} options={runOptions} />
      </KestrelProvider>,
      options,
    );
    act(() => probe.current?.start('Tell me about Canberra'));
    await waitFor(() => expect(probe.current?.state.draftText).not.toBe(''));
    return { probe, rendered, runId: probe.current!.state.runId! };
  };
  const cancels = (runId: string) => kestrel.sent('POST', new RegExp(`/v1/runs/${runId}/cancel$`)).length;

  it('cancel asks the server and the run settles CANCELLED from the stream', async () => {
    const { probe, runId } = await streaming();
    await act(() => probe.current!.cancel());
    await waitFor(() => expect(view().dataset.status).toBe('CANCELLED'));
    expect(view().dataset.phase).toBe('settled');
    expect(cancels(runId)).toBe(1);
  });

  it('detach stops watching without cancelling: phase detached, no outcome claimed', async () => {
    const { probe, runId } = await streaming();
    act(() => probe.current!.detach());
    expect(view().dataset.phase).toBe('detached');
    expect(view().dataset.status).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cancels(runId)).toBe(0);
    expect(view().dataset.phase).toBe('detached');
  });

  it('unmounting detaches and never cancels', async () => {
    const { probe, rendered, runId } = await streaming();
    const run = probe.current!;
    rendered.unmount();
    await waitFor(() => expect(run.getState().phase).toBe('detached'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cancels(runId)).toBe(0);
  });

  it('unmounting cancels when cancelOnUnmount is set', async () => {
    const { probe, rendered, runId } = await streaming({ cancelOnUnmount: true });
    const run = probe.current!;
    rendered.unmount();
    await waitFor(() => expect(cancels(runId)).toBe(1));
    await waitFor(() => expect(run.getState().phase).not.toBe('streaming'));
  });
});

describeModes('useRun callbacks', ({ options }) => {
  it('fire once per occurrence, and always the latest ones, without restarting the run', async () => {
    const calls: string[] = [];
    const probe = createProbe();
    const client = kestrel.client({ scenario: 'completed-text', delayMs: 5 });
    const tree = (tag: string) => (
      <KestrelProvider client={client}>
        <RunProbe
          probe={probe}
          options={{
            onSettled: (event) => calls.push(`${tag}:settled:${event.output.status}`),
            onError: (error) => calls.push(`${tag}:error:${error.kind}`),
          }}
        />
      </KestrelProvider>
    );
    const rendered = render(tree('first'), options);
    act(() => probe.current?.start('Hi'));
    await waitFor(() => expect(probe.current?.state.draftText).not.toBe(''));
    const before = kestrel.sent('POST', /\/runs$/).length;
    rendered.rerender(tree('second'));
    await waitFor(() => expect(view().dataset.phase).toBe('settled'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual(['second:settled:COMPLETED']);
    expect(kestrel.sent('POST', /\/runs$/).length).toBe(before);
  });

  it('onError fires once for a stream that ends without an outcome', async () => {
    const errors: string[] = [];
    const settled: string[] = [];
    const probe = createProbe();
    render(
      <KestrelProvider client={kestrel.client({ scenario: 'truncated' })}>
        <RunProbe
          probe={probe}
          options={{
            onError: (error) => errors.push(error.kind),
            onSettled: (event) => settled.push(event.output.status),
          }}
        />
      </KestrelProvider>,
      options,
    );
    act(() => probe.current?.start('Plan the migration'));
    await waitFor(() => expect(view().dataset.phase).toBe('error'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors).toEqual(['truncated']);
    expect(settled).toEqual([]);
  });
});

describeModes('useRun finds its client', ({ options }) => {
  it('makes one from baseUrl without a provider', async () => {
    const probe = createProbe();
    render(<RunProbe probe={probe} options={{ baseUrl: kestrel.baseUrl }} />, options);
    act(() => probe.current?.start('[scenario:failed-no-text] Delete every customer record'));
    await waitFor(() => expect(view().dataset.status).toBe('FAILED'));
  });

  it('useKestrelClient returns the provider client, and names the provider when there is none', () => {
    const client = kestrel.client();
    let seen: unknown = null;
    function Reader() {
      seen = useKestrelClient();
      return null;
    }
    render(
      <KestrelProvider client={client}>
        <Reader />
      </KestrelProvider>,
      options,
    );
    expect(seen).toBe(client);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Reader />, options)).toThrow(/KestrelProvider/);
    expect(() => render(<RunProbe probe={createProbe()} />, options)).toThrow(/useRun\(\) needs a run client/);
    errors.mockRestore();
  });
});
