import { measureCase, THROUGHPUT_CASES, type ThroughputCase } from './throughput-cases.js';

/*
 * The page of the Chromium throughput part (throughput-chromium.ts): the same pipeline and floors as the Node part,
 * bundled, on the same synthetic bytes and chunks, so item 3 is also measured where one event per chunk is
 * delivered (a browser behind the kit's proxy). The driver sets the rounds and reads the result.
 */

interface PageGlobals {
  benchOptions?: { readonly rounds: number; readonly warmup: number; readonly labels: readonly string[] };
  benchResult?: Promise<ThroughputCase[]>;
}

async function measureAll(): Promise<ThroughputCase[]> {
  const { rounds, warmup, labels } = (globalThis as PageGlobals).benchOptions!;
  const measured: ThroughputCase[] = [];
  for (const { label, options } of THROUGHPUT_CASES.filter((c) => labels.includes(c.label))) {
    measured.push(await measureCase(label, options, rounds, warmup));
  }
  return measured;
}

(globalThis as PageGlobals).benchResult = measureAll();
