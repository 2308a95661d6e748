/** Whether `a` and `b` have as many keys, and `same` holds for each key of `a`. */
export function everyKey<T extends object>(a: T, b: T, same: (key: keyof T) => boolean): boolean {
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every(same);
}

/** Equal when both objects hold the same values (by `Object.is`) under the same keys: for selector results. */
export function shallowEqual<T extends object>(a: T, b: T): boolean {
  return Object.is(a, b) || everyKey(a, b, (key) => Object.is(a[key], b[key]));
}
