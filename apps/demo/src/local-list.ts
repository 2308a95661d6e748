/**
 * A newest-first list of up to 50 items kept in `localStorage` under `key`, each once by `idOf`: what the history
 * page lists (runs, conversations). Unreadable storage reads as empty.
 */
export function localList<T>(key: string, idOf: (item: T) => string) {
  const LIMIT = 50;
  const read = (): T[] => {
    try {
      const parsed: unknown = JSON.parse(window.localStorage.getItem(key) ?? '[]');
      return Array.isArray(parsed) ? (parsed as T[]) : [];
    } catch {
      return [];
    }
  };
  const remember = (item: T): void => {
    const rest = read().filter((known) => idOf(known) !== idOf(item));
    window.localStorage.setItem(key, JSON.stringify([item, ...rest].slice(0, LIMIT)));
  };
  return { read, remember };
}
