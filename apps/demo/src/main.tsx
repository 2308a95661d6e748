import { KestrelProvider } from '@kestrel/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { runClient } from './client.js';
import '@kestrel/react/theme.css';
import './styles.css';

const queryClient = new QueryClient();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <KestrelProvider client={runClient}>
        <App />
      </KestrelProvider>
    </QueryClientProvider>
  </StrictMode>,
);
