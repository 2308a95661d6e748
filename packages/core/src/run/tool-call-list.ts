import { emptyVector, vectorAppend, vectorAt, vectorSet, vectorToArray, type Vector } from './persistent-vector.js';
import type { ToolCall } from './run-state.js';

/**
 * A run's tool calls in the order they started: an immutable list where recording a call or its completion costs
 * O(log n), so a run with thousands of calls stays linear (a copy of the whole list per tool event made a run of
 * 32,000 calls take 20 s). Read it with `length`, `at`, `get`, `for…of` or `toArray()`; a list never changes
 * once made, and the list of an older state keeps the calls it had.
 */
export class ToolCallList implements Iterable<ToolCall> {
  readonly #vector: Vector<ToolCall>;
  /**
   * Where each call id was recorded, shared by the lists made from one another. Never trusted alone: two lists
   * made from one older list can record different calls at one index, so a hit is checked against the list.
   */
  readonly #index: Map<string, number> | undefined;
  #array: readonly ToolCall[] | undefined;

  private constructor(vector: Vector<ToolCall>, index: Map<string, number> | undefined) {
    this.#vector = vector;
    this.#index = index;
  }

  /** No calls. Each run's first call gives its lists an index of their own. */
  static readonly empty: ToolCallList = new ToolCallList(emptyVector, undefined);

  /** A list of these calls, in this order. */
  static from(calls: Iterable<ToolCall>): ToolCallList {
    let list = ToolCallList.empty;
    for (const call of calls) list = list.#with(-1, call);
    return list;
  }

  get length(): number {
    return this.#vector.length;
  }

  /** The call at `index` (negative counts from the end), `undefined` outside the list. */
  at(index: number): ToolCall | undefined {
    const i = index < 0 ? this.length + index : index;
    return i >= 0 && i < this.length ? vectorAt(this.#vector, i) : undefined;
  }

  /** The call with this id, `undefined` when there is none. */
  get(callId: string): ToolCall | undefined {
    const index = this.indexOf(callId);
    return index === -1 ? undefined : vectorAt(this.#vector, index);
  }

  /** Where the call with this id is, -1 when there is none. */
  indexOf(callId: string): number {
    const known = this.#index?.get(callId);
    if (known === undefined) return -1; // never recorded in any list this one shares its index with
    if (known < this.length && vectorAt(this.#vector, known).callId === callId) return known;
    // Another list made from an older one recorded the id elsewhere: look, from the end (recent calls first).
    for (let i = this.length - 1; i >= 0; i--) if (vectorAt(this.#vector, i).callId === callId) return i;
    return -1;
  }

  /** A new list with `call` in place of the call with its id, or at the end when there is none; this one is unchanged. */
  upsert(call: ToolCall): ToolCallList {
    return this.#with(this.indexOf(call.callId), call);
  }

  #with(at: number, call: ToolCall): ToolCallList {
    if (at !== -1) return new ToolCallList(vectorSet(this.#vector, at, call), this.#index);
    const index = this.#index ?? new Map<string, number>();
    index.set(call.callId, this.length);
    return new ToolCallList(vectorAppend(this.#vector, call), index);
  }

  /** The calls as a frozen array, computed once per list. */
  toArray(): readonly ToolCall[] {
    this.#array ??= Object.freeze(vectorToArray(this.#vector));
    return this.#array;
  }

  [Symbol.iterator](): Iterator<ToolCall> {
    return this.toArray()[Symbol.iterator]();
  }

  toJSON(): readonly ToolCall[] {
    return this.toArray();
  }
}
