import type { TestProject } from 'vitest/node';
import { startNext } from './next-start.js';

declare module 'vitest' {
  export interface ProvidedContext {
    nextUrl: string;
  }
}

/** One `next start` for every e2e file. */
export default async function setup(project: TestProject) {
  const server = await startNext();
  project.provide('nextUrl', server.url);
  return () => server.close();
}
