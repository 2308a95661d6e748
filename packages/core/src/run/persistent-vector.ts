/*
 * A persistent vector: an immutable list whose append and replace-at-index copy O(log₃₂ n) small arrays instead of
 * the whole list (a bit-partitioned trie of 32-wide nodes with a tail, as in Clojure's vector). Every operation
 * returns a new vector and leaves its input as it was, so older run states keep the list they had. Internal to
 * the run state's tool calls (see tool-call-list.ts).
 */

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

/** A trie node: leaves hold items, inner nodes hold nodes one level down. Never changed once built. */
type Node = readonly unknown[];

export interface Vector<T> {
  readonly length: number;
  /** Bits to shift an index by at the root: 5 while the trie holds at most 32 leaves, then 10, 15, … */
  readonly shift: number;
  readonly root: Node;
  /** The last up to 32 items, outside the trie: most appends copy this alone. */
  readonly tail: readonly T[];
}

/** An empty vector. */
export const emptyVector: Vector<never> = Object.freeze({ length: 0, shift: BITS, root: [], tail: [] });

function tailOffset(vector: Vector<unknown>): number {
  return vector.length < WIDTH ? 0 : ((vector.length - 1) >>> BITS) << BITS;
}

/** The item at `index`, which must be within the vector. */
export function vectorAt<T>(vector: Vector<T>, index: number): T {
  const offset = tailOffset(vector);
  if (index >= offset) return vector.tail[index - offset]!;
  let node = vector.root;
  for (let level = vector.shift; level > 0; level -= BITS) node = node[(index >>> level) & MASK] as Node;
  return node[index & MASK] as T;
}

function newPath(level: number, node: Node): Node {
  return level === 0 ? node : [newPath(level - BITS, node)];
}

/** `parent` with the full tail of a vector of `length` items added as its last leaf, path-copied. */
function pushTail(length: number, level: number, parent: Node, tail: Node): Node {
  const index = ((length - 1) >>> level) & MASK;
  const copy = parent.slice();
  if (level === BITS) copy[index] = tail;
  else {
    const child = parent[index] as Node | undefined;
    copy[index] = child === undefined ? newPath(level - BITS, tail) : pushTail(length, level - BITS, child, tail);
  }
  return copy;
}

/** A new vector with `item` at the end. */
export function vectorAppend<T>(vector: Vector<T>, item: T): Vector<T> {
  const { length, shift, root, tail } = vector;
  if (length - tailOffset(vector) < WIDTH) return { length: length + 1, shift, root, tail: [...tail, item] };
  // The tail is full: it becomes a leaf of the trie, which grows a level when its root is full.
  if (length >>> BITS > 1 << shift) {
    return { length: length + 1, shift: shift + BITS, root: [root, newPath(shift, tail)], tail: [item] };
  }
  return { length: length + 1, shift, root: pushTail(length, shift, root, tail), tail: [item] };
}

function setInNode(level: number, node: Node, index: number, item: unknown): Node {
  const copy = node.slice();
  if (level === 0) copy[index & MASK] = item;
  else {
    const at = (index >>> level) & MASK;
    copy[at] = setInNode(level - BITS, node[at] as Node, index, item);
  }
  return copy;
}

/** A new vector with `item` at `index`, which must be within the vector. */
export function vectorSet<T>(vector: Vector<T>, index: number, item: T): Vector<T> {
  const { length, shift, root, tail } = vector;
  const offset = tailOffset(vector);
  if (index >= offset) {
    const copy = tail.slice();
    copy[index - offset] = item;
    return { length, shift, root, tail: copy };
  }
  return { length, shift, root: setInNode(shift, root, index, item), tail };
}

/** The items in order, as a new array. */
export function vectorToArray<T>(vector: Vector<T>): T[] {
  const items: T[] = [];
  const collect = (node: Node, level: number) => {
    if (level === 0) for (const item of node) items.push(item as T);
    else for (const child of node) collect(child as Node, level - BITS);
  };
  // Only the trie's part before the tail: a trie never holds an item twice.
  if (vector.length >= WIDTH) collect(vector.root, vector.shift);
  for (const item of vector.tail) items.push(item);
  return items;
}
