/** True when the dev or preview server answers `/v1` with the mock Kestrel (no `KESTREL_URL`); set by Vite. */
declare const __KESTREL_MOCK__: boolean;
