import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// React Testing Library unmounts between tests only when globals are on; do it explicitly.
afterEach(() => {
  cleanup();
});
