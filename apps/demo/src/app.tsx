import { ChatPage } from './pages/chat-page.js';
import { HistoryPage } from './pages/history-page.js';
import { InvoicePage } from './pages/invoice-page.js';
import { RunViewPage } from './pages/run-view-page.js';

const pages = [
  { path: '/', title: 'Chat', Page: ChatPage },
  { path: '/run-view', title: 'RunView', Page: RunViewPage },
  { path: '/invoice', title: 'Invoice (useRun)', Page: InvoicePage },
  { path: '/history', title: 'History', Page: HistoryPage },
] as const;

/** Plain pages; a link loads the next one, which is also how "leaving the page" looks to a run. */
export function App() {
  const current = pages.find((page) => page.path === window.location.pathname) ?? pages[0];
  return (
    <>
      <nav aria-label="Demo pages">
        <strong>Kestrel demo</strong>
        {pages.map((page) => (
          <a key={page.path} href={page.path} aria-current={page === current ? 'page' : undefined}>
            {page.title}
          </a>
        ))}
        <span className="backend">{__KESTREL_MOCK__ ? 'mock Kestrel' : 'Kestrel via proxy'}</span>
      </nav>
      <current.Page />
    </>
  );
}
