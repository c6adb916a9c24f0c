/** A tiny typed event emitter: `on` returns the unsubscribe function. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EventMap = Record<string, (...args: any[]) => void>;

export class Emitter<E extends EventMap> {
  private readonly listeners = new Map<keyof E, Set<E[keyof E]>>();

  on<K extends keyof E>(event: K, listener: E[K]): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => this.off(event, listener);
  }

  off<K extends keyof E>(event: K, listener: E[K]): void {
    this.listeners.get(event)?.delete(listener);
  }

  protected emit<K extends keyof E>(event: K, ...args: Parameters<E[K]>): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as (...a: Parameters<E[K]>) => void)(...args);
      } catch (error) {
        console.error(`voice: a ${String(event)} listener threw`, error);
      }
    }
  }
}
