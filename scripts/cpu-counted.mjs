// Runs a command (its arguments), waits for it, and reports on file descriptor 3 the CPU seconds
// it and every descendant it waited for used (Linux: this process's children's times in
// /proc/self/stat), then exits with the command's status. scripts/test-all.mjs runs each step
// through it, so its summary can say what a step cost as well as how long it took, also when
// steps run side by side.
import { spawn } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';

/** User + system seconds of this process's waited-for children, or null where /proc is not Linux's. */
export function childrenCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command's name: state is the 3rd field; cutime and cstime the 16th and 17th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => {
  const cpu = childrenCpuSeconds();
  try {
    if (cpu !== null) writeSync(3, `${cpu}\n`);
  } catch {
    // run without a descriptor 3: nobody asked
  }
  process.exit(code ?? (signal ? 1 : 0));
});
