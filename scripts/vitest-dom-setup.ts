import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor wait on loopback servers: 5 s instead of 1 s, so a loaded machine is slower, not red.
configure({ asyncUtilTimeout: 5_000 });

// React Testing Library unmounts between tests only when globals are on; do it explicitly.
afterEach(() => {
  cleanup();
});
