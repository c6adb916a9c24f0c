import { existsSync, readdirSync } from 'node:fs';
import { zombiesBelow } from '../testing/processes';
import { Launcher } from './launcher';

describe('Launcher (programs run through one long-lived shell)', () => {
  let launcher: Launcher;
  beforeEach(() => {
    launcher = new Launcher();
  });
  afterEach(() => {
    launcher.close();
  });

  it('passes the input on stdin and returns stdout, stderr and the exit status', async () => {
    const text = "Café “naïve” — it's $HOME `date` \\n; rm -rf /\n".repeat(2000);
    const echoed = await launcher.run('cat', [], text);
    expect(echoed.status).toBe(0);
    expect(Buffer.from(echoed.stdout).toString('utf8')).toBe(text);

    const failed = await launcher.run(
      'sh',
      ['-c', 'echo "went wrong: $1" >&2; exit 7', 'sh', "it's a 'quoted' arg; $(nope)"],
      '',
    );
    expect(failed.status).toBe(7);
    expect(failed.stderr).toBe("went wrong: it's a 'quoted' arg; $(nope)\n");
    expect(failed.stdout.length).toBe(0);
  });

  it('runs calls at once and gives each its own output', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        launcher.run('sh', ['-c', `sleep 0.0${i % 3}; cat; echo " #${i}"`], `call ${i}`),
      ),
    );
    expect(results.map((r) => Buffer.from(r.stdout).toString())).toEqual(
      Array.from({ length: 12 }, (_, i) => `call ${i} #${i}\n`),
    );
  });

  it('kills the program when the signal aborts, and keeps serving', async () => {
    const ac = new AbortController();
    const slow = launcher.run('sleep', ['30'], '', ac.signal);
    await new Promise((r) => setTimeout(r, 200));
    ac.abort();
    await expect(slow).rejects.toThrow('aborted');
    expect((await launcher.run('cat', [], 'still here')).stdout.length).toBe(10);
  });

  it('a missing program is an exit status, not a hang', async () => {
    const missing = await launcher.run('/nonexistent/espeak-ng', ['--stdout'], 'hi');
    expect(missing.status).toBe(127);
    expect(missing.stderr).toMatch(/not found|No such file/);
  });

  it('leaves no files behind', async () => {
    await launcher.run('cat', [], 'x');
    await expect(launcher.run('false', [], 'y')).resolves.toMatchObject({ status: 1 });
    const dir = launcher.directory!;
    expect(readdirSync(dir)).toEqual([]);
    launcher.close();
    expect(existsSync(dir)).toBe(false);
  });

  it('the shell removes its folder when its owner goes away without closing it', async () => {
    await launcher.run('cat', [], 'x');
    const dir = launcher.directory!;
    // What a killed server leaves: the shell sees its stdin end.
    (launcher as unknown as { shell: { stdin: { end(): void } } }).shell.stdin.end();
    for (let i = 0; i < 100 && existsSync(dir); i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(dir)).toBe(false);
  });

  it('waits for every call: no zombie process is left behind, however many calls ran', async () => {
    for (let round = 0; round < 5; round += 1) {
      await Promise.all(Array.from({ length: 8 }, (_, i) => launcher.run('cat', [], `call ${round}.${i}`)));
    }
    await launcher.run('false', [], '');
    const ac = new AbortController();
    const slow = launcher.run('sleep', ['30'], '', ac.signal);
    await new Promise((r) => setTimeout(r, 100));
    ac.abort();
    await expect(slow).rejects.toThrow('aborted');
    await launcher.run('cat', [], 'last');
    // The launcher has waited for each call's process before answering the next one's command line.
    const shell = launcher.shellPid!;
    for (let i = 0; i < 50 && zombiesBelow(shell) > 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(zombiesBelow(shell)).toBe(0);
  });
});
