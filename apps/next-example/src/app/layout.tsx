import '@kestrel/react/theme.css';
import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { Providers } from './providers';

export const metadata: Metadata = { title: 'Kestrel in Next.js' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <nav aria-label="Examples">
          <Link href="/">RunView</Link> · <Link href="/drop-in">README drop-in</Link> ·{' '}
          <Link href="/chat">useChat</Link>
        </nav>
        <main>
          <Providers>{children}</Providers>
        </main>
      </body>
    </html>
  );
}
