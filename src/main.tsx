// The book face for titles, self-hosted: its @font-face rules load as a stylesheet of their own and
// each subset's font file only when a title needs it (never inlined into the JavaScript).
import '@fontsource-variable/literata/wght.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';

async function start() {
  // `VITE_MOCK_API=true` runs the SPA against the msw handlers that also back the stories.
  if (import.meta.env.VITE_MOCK_API === 'true') {
    const { worker } = await import('./mocks/browser');
    await worker.start({ onUnhandledRequest: 'bypass' });
  }
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
