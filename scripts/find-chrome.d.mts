/** Path of a Chromium executable: CHROME_PATH, else a system Chromium; throws saying what to install. */
export function findChrome(): string;
/** Flags that keep headless Chromium quiet on a closed network. */
export const chromeArgs: string[];
