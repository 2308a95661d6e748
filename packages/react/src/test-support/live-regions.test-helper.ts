/**
 * Every text a screen reader would be given by the live regions under `container` from now on: each time a region
 * that is not `aria-live="off"` (nor inside one that is) receives new text. `stop` returns them and stops listening.
 */
export function listenToLiveRegions(container: HTMLElement): { stop: () => string[] } {
  const heard: string[] = [];
  const regionOf = (node: Node) =>
    (node instanceof Element ? node : node.parentElement)?.closest<HTMLElement>(
      '[aria-live], [role="log"], [role="status"], [role="alert"]',
    ) ?? null;
  const take = (records: MutationRecord[]) => {
    for (const record of records) {
      const region = regionOf(record.target);
      if (region === null || region.getAttribute('aria-live') === 'off') continue;
      const added = record.type === 'characterData' || record.addedNodes.length > 0;
      const text = region.textContent ?? '';
      if (added && text !== '' && heard.at(-1) !== text) heard.push(text);
    }
  };
  const observer = new MutationObserver(take);
  observer.observe(container, { subtree: true, childList: true, characterData: true });
  return {
    stop: () => {
      take(observer.takeRecords());
      observer.disconnect();
      return heard;
    },
  };
}
