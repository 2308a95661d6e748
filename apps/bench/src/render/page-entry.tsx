// The Chromium page: exposes runTrial to the driver (render-browser.ts). Bundled with react-dom's profiling build.
import { createRoot } from 'react-dom/client';
import { runRunViewTrial } from './runview-trial-app.js';
import type { RunViewTrialOptions } from './runview-trial-types.js';
import { runSessionTrial } from './session-trial-app.js';
import type { SessionTrialOptions } from './session-trial-types.js';
import { runTrial, type TrialHost } from './trial-app.js';
import type { TrialOptions } from './trial-types.js';

function watchLongTasks() {
  let count = 0;
  let totalMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      count += 1;
      totalMs += entry.duration;
    }
  });
  observer.observe({ type: 'longtask' });
  return () => {
    for (const entry of observer.takeRecords()) {
      count += 1;
      totalMs += entry.duration;
    }
    observer.disconnect();
    return { count, totalMs };
  };
}

function withHost<T>(run: (host: TrialHost) => Promise<T>): Promise<T> {
  const container = document.createElement('div');
  document.body.append(container);
  return run({ createRoot, container, watchLongTasks }).finally(() => container.remove());
}

const page = window as unknown as {
  runTrial: (options: TrialOptions) => unknown;
  runRunViewTrial: (options: RunViewTrialOptions) => unknown;
  runSessionTrial: (options: SessionTrialOptions) => unknown;
};
page.runTrial = (options) => withHost((host) => runTrial(host, options));
page.runRunViewTrial = (options) => withHost((host) => runRunViewTrial(host, options));
page.runSessionTrial = (options) => withHost((host) => runSessionTrial(host, options));
