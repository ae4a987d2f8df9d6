import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { ApiError } from './api';

const theme = createTheme({ respectReducedMotion: true, primaryColor: 'teal', primaryShade: 9, defaultRadius: 'md', fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif' });
const queries = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // Refusals are answers, not outages: retry only what may pass on a second try.
      retry: (n, err) => n < 2 && !(err instanceof ApiError && err.status < 500),
    },
  },
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <MantineProvider theme={theme}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queries}>
        <BrowserRouter basename="/app">
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
