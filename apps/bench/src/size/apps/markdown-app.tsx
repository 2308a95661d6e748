import { MarkdownText } from '@kestrel/react/markdown';
import { createRoot } from 'react-dom/client';

// The markdown entry on its own: an app rendering one answer with MarkdownText.
createRoot(document.getElementById('root')!).render(<MarkdownText>{'# Answer\n\nSome **markdown**.'}</MarkdownText>);
