import axe from 'axe-core';

/**
 * Runs axe on a rendered element and fails with the rule ids and targets of any violation. `region` is off:
 * a component is tested on its own, not as a full page with landmarks. `color-contrast` is off because jsdom
 * cannot paint; the Storybook tests in Chromium run it.
 */
export async function expectNoAxeViolations(container: Element): Promise<void> {
  const results = await axe.run(container, {
    rules: { region: { enabled: false }, 'color-contrast': { enabled: false } },
    resultTypes: ['violations'],
  });
  const violations = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'n/a'}): ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`,
  );
  if (violations.length > 0) throw new Error(`axe found ${violations.length} violation(s):\n${violations.join('\n')}`);
}
