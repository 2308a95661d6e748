/*
 * Debian's Chromium, never a downloaded browser (scripts/ensure-chromium.sh installs it), with the flags these
 * machines need: headless as root, and quiet on the closed network (without the background-networking flags it
 * floods it with refused connections). Every browser the repo starts uses these: story tests, e2e, bench, screenshots.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
