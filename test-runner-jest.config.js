// Jest config for `test-storybook`: the runner's defaults, driving the system Chromium
// (scripts/find-chrome.mjs) with flags that keep it quiet on a closed network. Nothing is downloaded.
import { getJestConfig } from '@storybook/test-runner';
import { chromeArgs, findChrome } from './scripts/find-chrome.mjs';

const defaults = getJestConfig();

/** @type {import('@jest/types').Config.InitialOptions} */
export default {
  ...defaults,
  testEnvironmentOptions: {
    ...defaults.testEnvironmentOptions,
    'jest-playwright': {
      ...defaults.testEnvironmentOptions?.['jest-playwright'],
      browsers: ['chromium'],
      launchOptions: { executablePath: findChrome(), args: chromeArgs },
    },
  },
};
