import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/*
 * The heap as memory tests read it: strings that are equal and shared, or a rope and a flat string, look the same
 * from JavaScript. `--expose-gc` set at run time, and `gc` taken from a fresh context, where it now exists.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap bytes in use after collecting everything collectable (several passes: weak and finalised objects too). */
export function heapAfterGC(): number {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}
