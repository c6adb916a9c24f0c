import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import path from 'node:path';

function isExecutable(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Path of the executable `name` in the directories of `searchPath` (default PATH), or null. */
export function findExecutable(name: string, searchPath = process.env.PATH ?? ''): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}
