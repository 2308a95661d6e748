import { createScenarioRun, createScenarioSource, getScenario } from '@kestrel/testing';
import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { RunActivity } from './run-activity.js';
import { RunView } from './run-view.js';
import { ocrRenderer, strictOcrRenderer, weatherRenderer } from './stories/support/tool-renderers.js';
import { toolRenderer } from './tool-renderer.js';

const toolItem = (name: string) => screen.getByText(name, { selector: 'code' }).closest('li') as HTMLElement;

describe('tool renderers', () => {
  it('render a running call with its validated input, then the same call succeeded with its validated output', async () => {
    const source = createScenarioSource(getScenario('completed-payload'), {
      until: (state) => state.tools.length === 1,
    });
    const { container } = render(<RunActivity run={source} defaultOpen tools={{ 'ocr.extract': ocrRenderer }} />);
    const item = toolItem('ocr.extract');
    expect(item.getAttribute('data-kestrel-part')).toBe('tool');
    expect(item.getAttribute('data-status')).toBe('running');
    expect(item.textContent).toContain('Reading invoice-2041.pdf…');
    await expectNoAxeViolations(container);
    act(() => {
      source.step(2); // progress, tool.completed
    });
    expect(toolItem('ocr.extract').getAttribute('data-status')).toBe('succeeded');
    expect(toolItem('ocr.extract').textContent).toContain('Read invoice-2041.pdf: 1 page(s), 1834 characters');
    await expectNoAxeViolations(container);
  });

  it('render a failed call with its input and status; tools without a renderer keep the generic item', async () => {
    const { container } = render(
      <RunActivity
        run={createScenarioSource(getScenario('tool-error'))}
        defaultOpen
        tools={{ 'weather.forecast': weatherRenderer }}
      />,
    );
    const weather = toolItem('weather.forecast');
    expect(weather.getAttribute('data-status')).toBe('failed');
    expect(weather.textContent).toContain('failed');
    expect(weather.textContent).toContain('No forecast for Oslo');
    const cache = toolItem('cache.lookup');
    expect(cache.getAttribute('data-status')).toBe('succeeded');
    expect(cache.textContent).toBe('cache.lookup done');
    await expectNoAxeViolations(container);
  });

  it('never pass a value that fails its schema to the renderer: a visible notice names the issues instead', async () => {
    let rendered = 0;
    const counting = toolRenderer({
      input: z.object({ file: z.number() }),
      render: () => {
        rendered += 1;
        return 'rendered';
      },
    });
    const source = createScenarioSource(getScenario('completed-payload'));
    const { container, rerender } = render(
      <RunActivity run={source} defaultOpen tools={{ 'ocr.extract': counting }} />,
    );
    let notice = within(toolItem('ocr.extract')).getByRole('note');
    expect(notice.getAttribute('data-kestrel-part')).toBe('tool-notice');
    expect(notice.getAttribute('data-kind')).toBe('input');
    expect(notice.textContent).toContain("This tool call's input does not match this app's schema");
    expect(notice.querySelector('code')?.textContent).toBe('file');
    expect(rendered).toBe(0);
    await expectNoAxeViolations(container);

    rerender(<RunActivity run={source} defaultOpen tools={{ 'ocr.extract': strictOcrRenderer }} />);
    notice = within(toolItem('ocr.extract')).getByRole('note');
    expect(notice.getAttribute('data-kind')).toBe('output');
    expect(notice.querySelector('code')?.textContent).toBe('pages');
    expect(toolItem('ocr.extract').textContent).not.toContain('Pages:');
  });

  it('keep tool output as evidence inside the activity region, apart from the answer and the payload', () => {
    render(
      <RunView
        run={createScenarioRun(getScenario('completed-payload'))}
        activityOpen
        tools={{ 'ocr.extract': ocrRenderer }}
        renderPayload={() => <p>the payload</p>}
      />,
    );
    const rendered = screen.getByText(/Read invoice-2041.pdf/);
    const activity = rendered.closest('[data-kestrel-part="activity"]');
    expect(activity).not.toBeNull();
    expect(rendered.closest('[data-kestrel-part="tool"]')?.querySelector('code')?.textContent).toBe('ocr.extract');
    expect(
      rendered.closest('[data-kestrel-part="payload"], [data-kestrel-part="assistant-text"], [data-authored="app"]'),
    ).toBeNull();
    expect(screen.getByRole('group', { name: 'Application content' }).textContent).toBe('the payload');
  });

  it('treat a tool named like an Object property as unknown, never as a renderer', () => {
    const scenario = getScenario('completed-payload');
    const source = createScenarioSource(scenario, { until: (state) => state.tools.length === 1 });
    act(() =>
      source.dispatch({
        type: 'tool.started',
        runId: scenario.runId,
        sessionId: scenario.sessionId,
        seq: 900,
        callId: 'call_proto',
        name: 'constructor',
        input: {},
      }),
    );
    render(<RunActivity run={source} defaultOpen tools={{ 'ocr.extract': ocrRenderer }} />);
    expect(toolItem('constructor').textContent).toBe('constructor running');
  });
});
