'use client';
import { KestrelProvider } from '@kestrel/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';

/** The browser's run client goes through the app's own proxy route; one QueryClient per browser tab. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <KestrelProvider baseUrl="/api/kestrel">{children}</KestrelProvider>
    </QueryClientProvider>
  );
}
