import type { Logger } from 'pino';

/** A listener set whose members cannot break the emitter: a throwing listener is logged, not rethrown. */
export class Listeners<A extends unknown[]> {
  private readonly set = new Set<(...args: A) => void>();

  constructor(
    private readonly log: Logger,
    private readonly name: string,
  ) {}

  /** Adds `listener`; returns the function that removes it. */
  add(listener: (...args: A) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  emit(...args: A): void {
    for (const l of [...this.set]) {
      try {
        l(...args);
      } catch (err) {
        this.log.error({ err }, `${this.name} listener threw`);
      }
    }
  }
}
