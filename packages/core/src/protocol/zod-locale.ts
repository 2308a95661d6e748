import * as z from 'zod/mini';
import { en } from 'zod/locales';

/*
 * `zod/mini` loads no locale: without one every issue reads "Invalid input", and ProtocolError messages would lose
 * what was wrong. Classic zod registers English the same way (only when no locale is set), so an app that
 * chose its own locale with `z.config(...)` keeps it.
 */
export function ensureDefaultLocale(): void {
  if (z.config().localeError === undefined) z.config(en());
}
