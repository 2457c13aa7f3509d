/**
 * Loggers, with pino loaded only when something is logged. pino and its streams cost ≈ 15–20 ms to
 * load, and an in-process node (a test suite's) logs nothing by default; a silent logger is then
 * a no-op object with pino's Logger surface, so `import('chainlet')` and `startNode()` skip pino.
 */
import type { Logger, LoggerOptions } from 'pino';

const noop = (): void => undefined;

/** A logger that writes nothing, as `pino({ level: 'silent' })` but without loading pino. */
export function silentLogger(): Logger {
  let level = 'silent';
  const logger = {
    fatal: noop,
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    silent: noop,
    get level() {
      return level;
    },
    // Levels only change to silence or restore (anvil_setLoggingEnabled), and silent stays silent.
    set level(l: string) {
      level = l;
    },
    child: () => silentLogger(),
    isLevelEnabled: () => false,
    bindings: () => ({}),
    flush: (cb?: (err?: Error) => void) => cb?.(),
  };
  return logger as unknown as Logger;
}

/** A pino logger at `options.level`, or a silent one (without pino) when that level is `silent`. */
export async function createLogger(options: LoggerOptions & { level: string }): Promise<Logger> {
  if (options.level === 'silent') return silentLogger();
  const { pino } = await import('pino');
  return pino(options);
}
