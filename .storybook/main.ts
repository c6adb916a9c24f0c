import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../src/**/*.stories.tsx'],
  addons: ['@storybook/addon-a11y'],
  // public/ holds mockServiceWorker.js (copied from msw), served at the root for the msw addon.
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
};

export default config;
