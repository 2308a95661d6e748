export { MarkdownText, renderMarkdown } from './markdown-text.js';
export type { MarkdownTextProps } from './markdown-text.js';
export { safeUrl } from './safe-url.js';
export { closeOpenFence } from './close-open-fence.js';
export { CodeText } from './code-block.js';
export { watchScrollBox } from './scroll-box.js';
export type { MarkdownCodeBlock, RenderCodeBlock } from './code-block.js';
