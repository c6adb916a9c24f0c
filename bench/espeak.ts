/**
 * The native offline voice's own CPU per request: `npm run bench -- espeak`.
 * The same 60 requests of about 250 characters (one voice, the default rate) spoken by `espeak-ng`
 * started per request and by one kept-running `espeak-host` (server/tts/espeak-host.c), three
 * rounds alternating. CPU seconds come from /proc (the reaped commands' time, the host's own), so
 * the figure holds whatever else the machine runs; the wall time is printed beside it.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { detectNativeEspeak } from '../server/tts/espeak';
import { EspeakHostPool } from '../server/tts/espeak-host';
import { espeakHostBinary } from '../server/tts/espeak-host-build';
import { lowerPriority } from '../server/audio/lame-native';

const TICKS_PER_SECOND = 100;
const REQUESTS = 60;
const VOICE = 'en-us+f3';
const TEXT =
  'The lighthouse keeper climbed the stairs at dusk. He lit the great lamp and watched the ships turn away from the rocks. The sea was calm that night, and the stars were bright above the bay. In the morning he wrote the weather in his logbook.';

/** utime + stime (own: 11, 12; reaped children: 13, 14) from a /proc stat line, seconds. */
function cpu(stat: string, fields: [number, number]): number {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[fields[0]]) + Number(f[fields[1]])) / TICKS_PER_SECOND;
}

function runCommand(binary: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--stdout', '-b', '1', '-v', VOICE, '-s', '175'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    lowerPriority(child.pid);
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`espeak-ng exited with ${code}`))));
    child.stdin.end(TEXT);
  });
}

const binary = detectNativeEspeak();
const build = binary === null ? null : await espeakHostBinary();
if (binary === null || build === null || build.binary === null) {
  console.log(
    `eSpeak-NG per request against kept running: not measured (${binary === null ? 'espeak-ng is not on PATH' : `no host: ${build && 'reason' in build ? build.reason : ''}`})`,
  );
} else {
  for (let round = 1; round <= 3; round++) {
    const c0 = cpu(readFileSync('/proc/self/stat', 'utf8'), [13, 14]);
    const t0 = performance.now();
    for (let i = 0; i < REQUESTS; i++) await runCommand(binary);
    const commandCpu = cpu(readFileSync('/proc/self/stat', 'utf8'), [13, 14]) - c0;
    const commandWall = (performance.now() - t0) / 1000;

    const pool = new EspeakHostPool(build.binary, 1);
    await pool.say(VOICE, 175, 'Warm up.'); // the host's start (loading eSpeak's data) is paid once
    const pid = pool.pids[0]!;
    const h0 = cpu(readFileSync(`/proc/${pid}/stat`, 'utf8'), [11, 12]);
    const t1 = performance.now();
    for (let i = 0; i < REQUESTS; i++) await pool.say(VOICE, 175, TEXT);
    const hostCpu = cpu(readFileSync(`/proc/${pid}/stat`, 'utf8'), [11, 12]) - h0;
    const hostWall = (performance.now() - t1) / 1000;
    await pool.close();
    console.log(
      `round ${round}: ${REQUESTS} requests of ${TEXT.length} characters: espeak-ng per request ${commandCpu.toFixed(2)} CPU s ` +
        `(${commandWall.toFixed(2)} s), kept running ${hostCpu.toFixed(2)} CPU s (${hostWall.toFixed(2)} s): ` +
        `${((hostCpu / commandCpu) * 100).toFixed(0)} % of the CPU`,
    );
  }
}
