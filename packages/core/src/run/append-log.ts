/**
 * An immutable, append-only list whose appends cost amortized O(1).
 *
 * Each value is a view (a shared backing array and a length). Appending to the newest view pushes onto the
 * shared array; appending to an older view copies first, so no view ever sees items added after it was made.
 * This is what lets the run reducer produce a new state per event without re-copying 100,000 events.
 */
export class AppendLog<T> implements Iterable<T> {
  readonly #items: T[];
  readonly length: number;
  #array: readonly T[] | undefined;

  private constructor(items: T[], length: number) {
    this.#items = items;
    this.length = length;
  }

  static empty<T>(): AppendLog<T> {
    return new AppendLog<T>([], 0);
  }

  static from<T>(items: Iterable<T>): AppendLog<T> {
    const array = [...items];
    return new AppendLog(array, array.length);
  }

  /** A new log with `item` at the end; this one is unchanged. */
  append(item: T): AppendLog<T> {
    if (this.#items.length === this.length) {
      this.#items.push(item);
      return new AppendLog(this.#items, this.length + 1);
    }
    const copy = this.#items.slice(0, this.length);
    copy.push(item);
    return new AppendLog(copy, copy.length);
  }

  /**
   * Whether both logs are views of one backing array, i.e. one was made from the other by appends that copied
   * nothing. For tests and diagnostics of the O(1) append path.
   */
  sharesStorageWith(other: AppendLog<T>): boolean {
    return this.#items === other.#items;
  }

  at(index: number): T | undefined {
    const i = index < 0 ? this.length + index : index;
    return i >= 0 && i < this.length ? this.#items[i] : undefined;
  }

  /** The items as a frozen array, computed once per log. */
  toArray(): readonly T[] {
    this.#array ??= Object.freeze(this.#items.slice(0, this.length));
    return this.#array;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.length; i++) yield this.#items[i] as T;
  }

  toJSON(): readonly T[] {
    return this.toArray();
  }
}
