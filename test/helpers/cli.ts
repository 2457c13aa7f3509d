/**
 * Spawning the CLI in tests: `spawnCli` starts it with stdout and stderr collected, `waitFor`
 * resolves once stdout shows a line (and rejects if the process exits first), `killAll` (for
 * afterEach/afterAll) kills what is still running and waits for it, `freePort` finds a free port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The built CLI, what `npm start` and `npx chainlet` run. */
export const CLI_BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** `chainlet start` flags that put every server of the default network on a port the OS picks. */
export const PORTS0: readonly string[] = [
  '--rpc.laddr',
  'tcp://127.0.0.1:0',
  '--json-rpc.address',
  '127.0.0.1:0',
  '--json-rpc.ws-address',
  '127.0.0.1:0',
  '--routing.address',
  '127.0.0.1:0',
  '--svm-rpc',
  '127.0.0.1:0',
  '--svm-ws',
  '127.0.0.1:0',
  '--hub-rpc',
  'tcp://127.0.0.1:0',
];

export interface SpawnCliOptions {
  /** The script to run; the built CLI unless given (e.g. `src/cli/main.ts` with `nodeArgs: ['--import', 'tsx']`). */
  bin?: string;
  /** Arguments for node itself, before the script. */
  nodeArgs?: string[];
}

export interface WaitForOptions {
  /** Rejects after this many ms; without it, waits until the process exits. */
  timeoutMs?: number;
}

export interface CliProcess {
  child: ChildProcess;
  /** All of stdout so far. */
  out: () => string;
  /** All of stderr so far. */
  err: () => string;
  /** Resolves with stdout once it contains `until` (or `until(stdout)` is true); rejects if the process exits first. */
  waitFor: (until: string | ((out: string) => boolean), opts?: WaitForOptions) => Promise<string>;
}

const children: ChildProcess[] = [];

/** Spawns `node [nodeArgs] <bin> ...args` with stdout and stderr piped and collected; `killAll` stops it. */
export function spawnCli(args: string[], opts: SpawnCliOptions = {}): CliProcess {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.bin ?? CLI_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const waitFor = (until: string | ((out: string) => boolean), { timeoutMs }: WaitForOptions = {}): Promise<string> => {
    const done = typeof until === 'string' ? (o: string) => o.includes(until) : until;
    return new Promise<string>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (f: () => void) => {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.off('exit', onExit);
        f();
      };
      const onData = () => {
        if (done(out)) finish(() => resolve(out));
      };
      const onExit = (code: number | null) => finish(() => reject(new Error(`exited ${code}: ${err}\n${out}`)));
      if (done(out)) return resolve(out);
      if (child.exitCode !== null || child.signalCode !== null) return onExit(child.exitCode);
      child.stdout!.on('data', onData);
      child.once('exit', onExit);
      if (timeoutMs !== undefined) timer = setTimeout(() => finish(() => reject(new Error(`timed out waiting for stdout: ${err}\n${out}`))), timeoutMs);
    });
  };
  return { child, out: () => out, err: () => err, waitFor };
}

/** Kills (SIGKILL) every process `spawnCli` started that still runs, and waits for each to exit. */
export async function killAll(): Promise<void> {
  for (const c of children.splice(0)) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
