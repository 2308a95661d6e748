// The Chromium page: exposes runTrial to the driver (render-browser.ts). Bundled with react-dom's profiling build.
import { createRoot } from 'react-dom/client';
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

(window as unknown as { runTrial: (options: TrialOptions) => unknown }).runTrial = (options: TrialOptions) => {
  const container = document.createElement('div');
  document.body.append(container);
  const host: TrialHost = { createRoot, container, watchLongTasks };
  return runTrial(host, options).finally(() => container.remove());
};
