/**
 * The nodes under `root` whose children, text or attributes `update` changed, taken synchronously: what a streamed
 * update touched, so a test can say that settled text was left alone (and so not laid out again).
 */
export function nodesChangedBy(root: Node, update: () => void): Set<Node> {
  const changed = new Set<Node>();
  const observer = new MutationObserver((records) => records.forEach((record) => changed.add(record.target)));
  observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  try {
    update();
  } finally {
    observer.takeRecords().forEach((record) => changed.add(record.target));
    observer.disconnect();
  }
  return changed;
}
