/**
 * Writes of one key, one at a time, newest wins: while a write runs, later calls wait, and when it
 * ends only the newest of them is run, every waiting caller getting its answer. A player that saves
 * its place faster than the database answers (a slow moment, a tab catching up after sleep) costs
 * two writes per key at any one time, never a queue of stale ones.
 */
export function latestWins<T>(): (key: string, run: () => Promise<T>) => Promise<T> {
  interface Pending {
    run: () => Promise<T>;
    callers: { resolve: (value: T) => void; reject: (error: unknown) => void }[];
  }
  const lanes = new Map<string, { next: Pending | null }>();

  function start(key: string, lane: { next: Pending | null }, pending: Pending): void {
    void pending
      .run()
      .then(
        (value) => pending.callers.forEach((c) => c.resolve(value)),
        (error: unknown) => pending.callers.forEach((c) => c.reject(error)),
      )
      .finally(() => {
        const next = lane.next;
        lane.next = null;
        if (next === null) lanes.delete(key);
        else start(key, lane, next);
      });
  }

  return (key, run) =>
    new Promise<T>((resolve, reject) => {
      const caller = { resolve, reject };
      const lane = lanes.get(key);
      if (lane === undefined) {
        const fresh = { next: null };
        lanes.set(key, fresh);
        start(key, fresh, { run, callers: [caller] });
      } else if (lane.next === null) {
        lane.next = { run, callers: [caller] };
      } else {
        // The waiting write is superseded: its callers get the newer one's answer.
        lane.next.run = run;
        lane.next.callers.push(caller);
      }
    });
}
