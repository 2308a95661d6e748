import fc from 'fast-check';

/*
 * Property tests explore new inputs on every local run; CI replays one fixed seed, so that a counterexample nobody
 * has seen yet cannot block a landing at random. A failure prints its seed and path either way: replay it with
 * `FC_SEED=<seed> pnpm test`, fix, and keep the case as a plain test when it teaches something.
 */
const fromEnv =
  process.env.FC_SEED === undefined || process.env.FC_SEED === '' ? undefined : Number(process.env.FC_SEED);
const seed = fromEnv ?? (process.env.CI ? 20_261_130 : undefined);
if (seed !== undefined) fc.configureGlobal({ seed });
