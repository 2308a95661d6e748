import { render } from '@testing-library/react';
import { expect, it } from 'vitest';
import { watchScrollBox } from './scroll-box.js';

it('lets an app ref that calls watchScrollBox and drops its cleanup unmount without an error', () => {
  // React 19 calls a ref that returned nothing again with null when its element goes.
  const { container, unmount } = render(
    <pre
      ref={(element) => {
        watchScrollBox(element);
      }}
    >
      <code>npm test</code>
    </pre>,
  );
  // jsdom has no ResizeObserver: the box is a tab stop, as in any host where nothing can watch.
  expect(container.querySelector('pre')!.tabIndex).toBe(0);
  expect(() => unmount()).not.toThrow();
});
