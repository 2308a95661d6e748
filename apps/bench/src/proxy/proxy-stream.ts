import { encodeSSEEvent } from '@kestrel/core';
import { createEventFactory, seededRandom, type WireEvent } from '@kestrel/testing';

/**
 * The stream the proxy bench relays: `events` events of a run, mixed as an agent's are (about 55% `text.delta`,
 * 25% `reasoning.delta`, 20% tool, progress and log events), framed as Kestrel frames them (id, event, data).
 */
export function proxyStreamBytes(events: number, runId = 'run_big'): Uint8Array {
  const e = createEventFactory({ runId });
  const random = seededRandom(17);
  const list: WireEvent[] = [e.started(1), e.received()];
  let call = 0;
  while (list.length < events - 3) {
    const roll = random();
    if (roll < 0.55) list.push(e.text(`word${list.length % 97} `));
    else if (roll < 0.8) list.push(e.reasoning(`thinking ${list.length % 13} `));
    else if (roll < 0.87) list.push(e.progress('Reading the invoice', (list.length % 100) / 100));
    else if (roll < 0.93) list.push(e.log('info', `step ${list.length}`));
    else if (roll < 0.965) list.push(e.toolStarted(`call_${++call}`, 'lookup', { q: `item ${call}` }));
    else list.push(e.toolCompleted(`call_${call}`, { rows: call % 7 }));
  }
  list.push(e.turnEnd('completed'), e.idle(), e.completed({ status: 'COMPLETED', assistantText: 'Done.' }));
  return new TextEncoder().encode(list.map((event) => encodeSSEEvent(event as never)).join(''));
}

/** The first events of a run that then stays open and silent: what an idle stream holds. */
export function idleStreamHead(runId: string): Uint8Array {
  const e = createEventFactory({ runId });
  return new TextEncoder().encode([e.started(1), e.received()].map((event) => encodeSSEEvent(event as never)).join(''));
}
