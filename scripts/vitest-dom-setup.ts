import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';

// findBy* and waitFor wait on loopback servers: 5 s instead of 1 s, so a loaded machine is slower, not red.
configure({ asyncUtilTimeout: 5_000 });

// React Testing Library unmounts between tests only when globals are on; do it explicitly.
afterEach(() => {
  cleanup();
});

// @tanstack/virtual-core (the inspector's and the thread's lists) resets its "is scrolling" flag on a 150 ms timer
// that unmounting does not clear. Let such timers fire while the file's DOM still exists, instead of after jsdom
// is torn down (an uncaught "window is not defined" that fails the whole run).
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, 250)));
