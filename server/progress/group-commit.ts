/**
 * Writes gathered into one statement while the one before runs ("group commit"): the first write
 * runs at once, alone; writes that arrive meanwhile wait and go together in the next statement.
 * A quiet server writes each place as it comes; a busy one (thousands of listeners saving every
 * few seconds) writes a few statements a second instead of hundreds, each caller still answered
 * with its own row once it is written.
 *
 * When a statement fails, its writes are tried one by one, so that one bad write (a book deleted
 * as its place was saved) fails only its own caller.
 */
export function groupCommit<W, R>(
  writeMany: (writes: W[]) => Promise<R[]>,
  options: { maxBatch?: number } = {},
): (write: W) => Promise<R> {
  const maxBatch = options.maxBatch ?? 500;
  interface Waiting {
    write: W;
    resolve: (value: R) => void;
    reject: (error: unknown) => void;
  }
  let queue: Waiting[] = [];
  let running = false;

  async function runBatch(batch: Waiting[]): Promise<void> {
    try {
      const rows = await writeMany(batch.map((w) => w.write));
      batch.forEach((w, i) => w.resolve(rows[i]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const w of batch) {
        await writeMany([w.write]).then(
          (rows) => w.resolve(rows[0]!),
          (single: unknown) => w.reject(single),
        );
      }
    }
  }

  function drain(): void {
    if (running || queue.length === 0) return;
    running = true;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    void runBatch(batch).finally(() => {
      running = false;
      drain();
    });
  }

  return (write) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ write, resolve, reject });
      drain();
    });
}
