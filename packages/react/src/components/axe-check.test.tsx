import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe-check.test-helper.js';

describe('expectNoAxeViolations', () => {
  it('fails on a real violation, so the component checks can fail', async () => {
    const { container } = render(
      <div>
        <button type="button" />
        <input type="text" />
      </div>,
    );
    await expect(expectNoAxeViolations(container)).rejects.toThrow(/button-name|label/);
  });
});
