import type { TestProject } from 'vitest/node';
import { startPreview } from '../server/preview.js';

declare module 'vitest' {
  export interface ProvidedContext {
    demoUrl: string;
  }
}

/** Serves the built demo and the mock Kestrel once for every e2e file. */
export default async function setup(project: TestProject) {
  const server = await startPreview();
  project.provide('demoUrl', server.url);
  return () => server.close();
}
