import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider, createTheme, type MantineColorsTuple } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { ApiError } from './api';

/**
 * Ark's teal: the library's teal moved one step darker, so that the filled colour (shade 8, teal 9)
 * and its hover (shade 9, darker still) both keep white text above 4.5:1. With teal itself at shade
 * 9 the hover fell back to teal 8, and a hovered button's label failed WCAG AA.
 */
const ark: MantineColorsTuple = [
  '#e6fcf5',
  '#c3fae8',
  '#96f2d7',
  '#63e6be',
  '#20c997',
  '#12b886',
  '#0ca678',
  '#099268',
  '#087f5b',
  '#05664a',
];
const theme = createTheme({
  respectReducedMotion: true,
  colors: { ark },
  primaryColor: 'ark',
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
});
const queries = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // Refusals are answers, not outages: retry only what may pass on a second try.
      retry: (n, err) => n < 2 && !(err instanceof ApiError && err.status < 500),
    },
  },
});

// index.html always holds #root; without it there is nowhere to draw the app.
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme}>
      <Notifications position="bottom-right" />
      <QueryClientProvider client={queries}>
        <BrowserRouter basename="/app">
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
