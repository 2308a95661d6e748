import { check, interleave, median, medianRatio } from './measure.js';
import { floorFromStream, floorPipeline, kitPipeline, streamReadsOnly } from './pipeline.js';
import { createSyntheticStream, type SyntheticStreamOptions } from './synthetic-stream.js';

/** Deltas (or body events, on the mixed stream) of every throughput stream. */
export const THROUGHPUT_DELTAS = 100_000;

/** Issue 17 item 3's other streams and chunkings, beside the text stream in 64 KiB chunks. */
export const THROUGHPUT_CASES: readonly { readonly label: string; readonly options: SyntheticStreamOptions }[] = [
  { label: 'mixed stream, 64 KiB chunks', options: { deltas: THROUGHPUT_DELTAS, mix: 'mixed' } },
  { label: 'text stream, one event per chunk', options: { deltas: THROUGHPUT_DELTAS, chunking: 'per-event' } },
  {
    label: 'mixed stream, one event per chunk',
    options: { deltas: THROUGHPUT_DELTAS, mix: 'mixed', chunking: 'per-event' },
  },
];

/** What one case measured: the kit against its own floor on the same bytes and chunks. */
export interface ThroughputCase {
  readonly label: string;
  readonly stream: { readonly events: number; readonly bytes: number; readonly chunks: number };
  readonly floor: { readonly ms: number; readonly eventsPerSecond: number };
  readonly kit: { readonly ms: number; readonly eventsPerSecond: number };
  /** Kit throughput as a share of the floor's on the same bytes and chunks, median of per-round ratios. */
  readonly ratioToFloor: number;
  /**
   * Context, not the target: the same floor reading the chunks through a ReadableStream, as every client of a
   * fetch body must (the floor above loops over an array; with one event per chunk the read is most of the gap).
   */
  readonly ratioToStreamFloor: number;
  /**
   * Context: the `read()` calls alone (nothing decoded) as a share of the floor's whole time. With one event per
   * chunk they are most of it, and the kit pays them on top of everything the floor does and more.
   */
  readonly streamReadsPerFloor: number;
  /** Context: the floor reading the ReadableStream, as a share of the array floor's throughput. */
  readonly streamFloorToFloor: number;
  readonly target: number;
  readonly pass: boolean;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/**
 * One case, floor and kit interleaved round by round in rotated order (with the stream floor and the bare reads),
 * after `warmup` rounds. Runs in Node (throughput.ts) and in Chromium (throughput-page.ts) alike.
 */
export async function measureCase(
  label: string,
  options: SyntheticStreamOptions,
  rounds: number,
  warmup: number,
): Promise<ThroughputCase> {
  const stream = createSyntheticStream(options);
  const state = await kitPipeline(stream.chunks);
  check(
    state.phase === 'settled' && state.events.length === stream.events && state.draftText.length === stream.textLength,
    `${label}: the kit settled with every event and delta`,
  );
  check(floorPipeline(stream.chunks) === stream.events, `${label}: the floor saw every event`);
  check((await floorFromStream(stream.chunks)) === stream.events, `${label}: the stream floor saw every event`);
  const contenders = {
    floor: () => floorPipeline(stream.chunks),
    streamFloor: () => floorFromStream(stream.chunks),
    kit: () => kitPipeline(stream.chunks),
    streamReads: () => streamReadsOnly(stream.chunks),
  };
  await interleave(warmup, contenders);
  const times = await interleave(rounds, contenders);
  const ratio = medianRatio(times.floor, times.kit);
  const rate = (ms: number) => ({ ms: round(ms, 2), eventsPerSecond: Math.round(stream.events / (ms / 1000)) });
  return {
    label,
    stream: { events: stream.events, bytes: stream.bytes, chunks: stream.chunks.length },
    floor: rate(median(times.floor)),
    kit: rate(median(times.kit)),
    ratioToFloor: round(ratio, 3),
    ratioToStreamFloor: round(medianRatio(times.streamFloor, times.kit), 3),
    streamReadsPerFloor: round(medianRatio(times.streamReads, times.floor), 3),
    streamFloorToFloor: round(medianRatio(times.floor, times.streamFloor), 3),
    target: 0.5,
    pass: ratio >= 0.5,
  };
}
