// Finds a Chromium to drive in tests: CHROME_PATH first, then a system Chromium or Chrome.
// Nothing is downloaded. When none is found, it says exactly what to install.
import { accessSync, constants } from 'node:fs';

const candidates = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findChrome() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv;
    throw new Error(`CHROME_PATH is set to ${fromEnv}, but no executable is there.`);
  }
  const found = candidates.find(isExecutable);
  if (found) return found;
  throw new Error(
    'No Chromium found for the browser tests. Install one:\n' +
      '  Debian/Ubuntu: sudo apt-get install -y chromium\n' +
      '  macOS: install Google Chrome, or set CHROME_PATH to a Chromium binary\n' +
      'or set CHROME_PATH to the browser executable.',
  );
}

/** Flags that keep headless Chromium quiet on a closed network. */
export const chromeArgs = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
];

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(findChrome());
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
