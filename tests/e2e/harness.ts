import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { chromeArgs, findChrome } from '../../scripts/find-chrome.mjs';
import { freePort } from '../support/ports';

export interface RunningApp {
  url: string;
  dataDir: string;
  output: () => string;
  /** Stops the app gracefully and deletes its data. */
  stop: () => Promise<void>;
  /** Kills the app at once (SIGKILL, no shutdown) and keeps its data, as a crash or power cut would. */
  crash: () => Promise<void>;
}

/**
 * Starts the app exactly as `npm start` does (build if needed, then serve SPA + API on one port),
 * on a fresh data directory or on `dataDir` when given (to start again after a crash), on a free
 * port or on `port` (the same address again: a browser keeps its page, its storage and its session).
 */
export async function startApp(
  env: Record<string, string> = {},
  options: { dataDir?: string; port?: number } = {},
): Promise<RunningApp> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'lectio-e2e-'));
  let log = '';
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.on('data', (chunk) => (log += chunk));
  child.stderr?.on('data', (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited with ${child.exitCode} before it served:\n${log}`);
    try {
      const res = await fetch(`${url}/api/v1/environment`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The app did not answer within 180 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    dataDir,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid, 'SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
    crash: async () => {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGKILL');
      await exited;
    },
  };
}

/**
 * What the fake microphone hears: a quiet room (faint noise at about -60 dBFS, looped). Its level
 * meter moves, and the assistant's voice detector hears nobody speaking. Chromium's own fake
 * device plays a tone that the detector takes for a reader talking, which interrupts every answer
 * (barge-in) as a reader talking over it would.
 */
function quietRoomWav(): string {
  const rate = 48_000;
  const samples = rate * 2;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round((Math.random() * 2 - 1) * 32), 44 + i * 2);
  const path = join(mkdtempSync(join(tmpdir(), 'lectio-mic-')), 'quiet-room.wav');
  writeFileSync(path, wav);
  return path;
}

/**
 * Debian Chromium with the closed-network flags; Playwright gives it a fresh temporary profile.
 * Media: autoplay after a click as usual, and a fake microphone in a quiet room so the voice page
 * can open one.
 */
export async function launchBrowser(): Promise<Browser> {
  const quietRoom = quietRoomWav();
  const browser = await chromium.launch({
    executablePath: findChrome(),
    args: [
      ...chromeArgs,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${quietRoom}`,
    ],
    headless: true,
  });
  // The recording goes with the browser (a bench runs outside the tests' temporary directory).
  browser.on('disconnected', () => rmSync(dirname(quietRoom), { recursive: true, force: true }));
  return browser;
}

/** Creates an account through the Register screen and lands on the dashboard. */
export async function registerThroughUi(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(`${url}/register`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${url}/dashboard`);
}

/**
 * The browser's speech service, scripted: Chromium sends what the Web Speech API hears to a speech
 * service on the internet, which this closed network cannot reach. The page gets a SpeechRecognition
 * that hears what the test says with `say(page, text)`; everything after it is the real app.
 */
export async function scriptSpeechRecognition(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Listener = (() => void) | null;
    const listening: ScriptedRecognition[] = [];
    class ScriptedRecognition {
      continuous = false;
      interimResults = false;
      lang = '';
      onresult: ((event: unknown) => void) | null = null;
      onspeechstart: Listener = null;
      onspeechend: Listener = null;
      onerror: ((event: unknown) => void) | null = null;
      onend: Listener = null;
      start() {
        if (listening.includes(this)) throw new DOMException('already started', 'InvalidStateError');
        listening.push(this);
      }
      abort() {
        const at = listening.indexOf(this);
        if (at < 0) return;
        listening.splice(at, 1);
        setTimeout(() => this.onend?.(), 0);
      }
      stop() {
        this.abort();
      }
    }
    const w = window as unknown as Record<string, unknown>;
    w.SpeechRecognition = ScriptedRecognition;
    w.webkitSpeechRecognition = ScriptedRecognition;
    /** The reader says `text`: true once a listening recognizer heard it. */
    w.__lectioSay = (text: string) => {
      const recognition = listening.at(-1);
      if (recognition === undefined) return false;
      recognition.onspeechstart?.();
      recognition.onspeechend?.();
      const result = Object.assign([{ transcript: text, confidence: 1 }], { isFinal: true });
      recognition.onresult?.({ resultIndex: 0, results: [result] });
      return true;
    };
  });
}

/** The reader says `text` to the scripted speech recognition, once it listens. */
export async function say(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (words) => (window as unknown as { __lectioSay: (t: string) => boolean }).__lectioSay(words),
    text,
    { timeout: 30_000 },
  );
}

/**
 * Waits, through the API with the page's own sign-in, until the job has `status` (a job page shows
 * its chapters' statuses too, so its text alone cannot say the book is finished).
 */
export async function waitForJobStatus(
  page: Page,
  appUrl: string,
  jobId: string,
  status = 'COMPLETED',
  timeoutMs = 180_000,
): Promise<void> {
  const token = await page.evaluate(
    () => localStorage.getItem('access_token') ?? sessionStorage.getItem('access_token'),
  );
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await (await page.request.get(`${appUrl}/api/v1/jobs/${jobId}`, { headers })).json()) as {
      status?: string;
    };
    if (job.status === status) return;
    if (Date.now() > deadline) throw new Error(`Job ${jobId} is ${job.status}, not ${status}, after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}
