import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../src/**/*.stories.tsx'],
  // Docs: a page per story file (autodocs, tagged in preview.tsx); a11y: the accessibility pass.
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y'],
  // public/ holds mockServiceWorker.js (copied from msw) and the sample audio, served beside
  // iframe.html: the build works from any folder of any static file server (relative paths).
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
};

export default config;
