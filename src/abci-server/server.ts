/**
 * Serves an ABCI 2.0 application to a real CometBFT over its socket protocol (v0.38): CometBFT opens
 * four connections (consensus, mempool, query, snapshot) and sends length-prefixed
 * `tendermint.abci.Request`s; each is answered in order with its `Response`. As CometBFT's own
 * socket server, every app call holds one lock, so calls from the four connections never
 * interleave. A handler that throws answers `Response.exception`; a malformed or oversized frame
 * closes that connection (logged), leaving the app and the other connections as they were. Each
 * connection stops reading while its client leaves the answers unread (connection.ts).
 */
import { existsSync, unlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { Logger } from 'pino';
import type { Application } from '../abci/application.js';
import { parseListenAddress } from '../config/listen-address.js';
import { AbciConnection, QUEUE_HIGH_WATER_BYTES, type ConnectionStats } from './connection.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './framing.js';
import { fromWire, toWire, type W } from './wire.js';

export interface AbciServerOptions {
  app: Application;
  /** `tcp://host:port` (port 0: the OS picks) or `unix:///path/to.sock`. */
  address: string;
  /** Largest request frame accepted (default CometBFT's 100 MiB); a longer one closes its connection. */
  maxMessageBytes?: number;
  /** A connection stops being read while more than this many bytes of its requests wait for the app (default 4 MiB). */
  maxQueueBytes?: number;
  logger: Logger;
}

export interface AbciServer {
  /** The address it listens on (with the bound port for tcp). */
  readonly address: string;
  /** One entry per open connection: what it buffers and whether it reads. */
  stats(): ConnectionStats[];
  stop(): Promise<void>;
}

/** The answer to one request (throws what the app throws). */
export async function handleRequest(app: Application, req: W.Request): Promise<W.Response> {
  if (req.echo) return { echo: { message: req.echo.message } };
  if (req.flush) return { flush: {} };
  if (req.info) return { info: toWire.info(await app.info(fromWire.info(req.info))) };
  if (req.initChain) return { initChain: toWire.initChain(await app.initChain(fromWire.initChain(req.initChain))) };
  if (req.query) return { query: toWire.query(await app.query(fromWire.query(req.query))) };
  if (req.checkTx) return { checkTx: toWire.checkTx(await app.checkTx(fromWire.checkTx(req.checkTx))) };
  if (req.prepareProposal) return { prepareProposal: toWire.prepareProposal(await app.prepareProposal(fromWire.prepareProposal(req.prepareProposal))) };
  if (req.processProposal) return { processProposal: toWire.processProposal(await app.processProposal(fromWire.processProposal(req.processProposal))) };
  if (req.finalizeBlock) return { finalizeBlock: toWire.finalizeBlock(await app.finalizeBlock(fromWire.finalizeBlock(req.finalizeBlock))) };
  if (req.commit) return { commit: toWire.commit(await app.commit()) };
  // Vote extensions are not used: an empty extension, and every extension verifies.
  if (req.extendVote) return { extendVote: { voteExtension: new Uint8Array(0) } };
  if (req.verifyVoteExtension) return { verifyVoteExtension: { status: 1 /* ACCEPT */ } };
  // State sync: the app offers no snapshots and takes none.
  if (req.listSnapshots) return { listSnapshots: { snapshots: [] } };
  if (req.offerSnapshot) return { offerSnapshot: { result: 3 /* REJECT */ } };
  if (req.loadSnapshotChunk) return { loadSnapshotChunk: { chunk: new Uint8Array(0) } };
  if (req.applySnapshotChunk) return { applySnapshotChunk: { result: 2 /* ABORT */, refetchChunks: [], rejectSenders: [] } };
  throw new Error('unknown ABCI request (no field of the Request oneof is set)');
}

export async function startAbciServer(opts: AbciServerOptions): Promise<AbciServer> {
  const { app, logger } = opts;
  const maxBytes = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const maxQueueBytes = opts.maxQueueBytes ?? QUEUE_HIGH_WATER_BYTES;
  if (!Number.isSafeInteger(maxQueueBytes) || maxQueueBytes < 0) throw new RangeError(`maxQueueBytes must be a non-negative integer, got ${maxQueueBytes}`);
  const connections = new Set<AbciConnection>();
  let lock: Promise<void> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = lock.then(fn);
    lock = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };
  const handle = (req: W.Request) => exclusive(() => handleRequest(app, req));

  const server: Server = createServer((socket) => {
    const conn: AbciConnection = new AbciConnection(socket, handle, maxBytes, logger, () => connections.delete(conn), maxQueueBytes);
    connections.add(conn);
  });
  let address: string;
  if (opts.address.startsWith('unix://')) {
    const path = opts.address.slice('unix://'.length);
    if (existsSync(path)) unlinkSync(path);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
    address = opts.address;
  } else {
    const { host, port } = parseListenAddress(opts.address, '--proxy-app');
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    address = `tcp://${host}:${(server.address() as { port: number }).port}`;
  }
  logger.info({ address }, 'abci server listening');
  return {
    address,
    stats: () => [...connections].map((c) => c.stats()),
    async stop() {
      for (const c of connections) c.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
