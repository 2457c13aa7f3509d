/**
 * The other end of the ABCI socket: an `Application` whose calls travel to an app in another process,
 * as CometBFT's socket client does (`proxy_app = tcp://…`). Four connections are opened in CometBFT's
 * order (consensus, mempool, query, snapshot); each carries length-prefixed `Request`s and gets the
 * `Response`s back in order. An app's `Response.exception`, a closed connection or a reply of the
 * wrong kind rejects the call with `AbciClientError`; CometBFT stops the node then, and so does a
 * consensus engine whose app call fails.
 */
import { connect, type Socket } from 'node:net';
import type { Application } from '../abci/application.js';
import type * as A from '../abci/types.js';
import { DEFAULT_MAX_MESSAGE_BYTES, encodeFrame, FrameReader } from './framing.js';
import { requestToWire, responseFromWire, WireRequest, WireResponse, type W } from './wire.js';

export class AbciClientError extends Error {
  override name = 'AbciClientError';
}

type Kind = 'info' | 'initChain' | 'query' | 'checkTx' | 'prepareProposal' | 'processProposal' | 'finalizeBlock' | 'commit' | 'echo' | 'flush';

class Connection {
  private readonly reader: FrameReader;
  private readonly pending: { kind: Kind; resolve: (r: W.Response) => void; reject: (e: Error) => void }[] = [];
  private closedError: Error | undefined;

  constructor(
    private readonly name: string,
    private readonly socket: Socket,
    maxMessageBytes: number,
  ) {
    this.reader = new FrameReader(maxMessageBytes);
    socket.on('data', (chunk: Buffer) => {
      let frames: Uint8Array[];
      try {
        frames = this.reader.push(chunk);
      } catch (err) {
        this.fail(new AbciClientError(`${this.name} connection: ${(err as Error).message}`));
        return;
      }
      for (const frame of frames) {
        const p = this.pending.shift();
        if (!p) continue;
        let res: W.Response;
        try {
          res = WireResponse.decode(frame);
        } catch (err) {
          p.reject(new AbciClientError(`${this.name} connection: undecodable response: ${(err as Error).message}`));
          continue;
        }
        if (res.exception) p.reject(new AbciClientError(`the app answered ${p.kind} with an exception: ${res.exception.error}`));
        else if (!res[p.kind]) p.reject(new AbciClientError(`the app answered ${p.kind} with another message`));
        else p.resolve(res);
      }
    });
    socket.on('close', () => this.fail(new AbciClientError(`${this.name} connection to the app closed`)));
    socket.on('error', (err) => this.fail(new AbciClientError(`${this.name} connection to the app: ${err.message}`)));
  }

  call(kind: Kind, req: W.Request): Promise<W.Response> {
    if (this.closedError) return Promise.reject(this.closedError);
    return new Promise((resolve, reject) => {
      this.pending.push({ kind, resolve, reject });
      this.socket.write(encodeFrame(WireRequest.encode(req).finish()));
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private fail(err: Error): void {
    this.closedError ??= err;
    for (const p of this.pending.splice(0)) p.reject(err);
  }
}

function dial(address: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    let socket: Socket;
    if (address.startsWith('unix://')) socket = connect(address.slice('unix://'.length));
    else {
      const m = /^tcp:\/\/(.+):(\d+)$/.exec(address);
      if (!m) {
        reject(new AbciClientError(`invalid app address "${address}": expected tcp://host:port or unix:///path`));
        return;
      }
      socket = connect(Number(m[2]), m[1]!.replace(/^\[|\]$/g, ''));
    }
    socket.setNoDelay(true);
    socket.once('connect', () => resolve(socket));
    socket.once('error', (err) => reject(new AbciClientError(`cannot reach the app at ${address}: ${err.message}`)));
  });
}

export interface SocketApplication extends Application {
  readonly address: string;
  echo(message: string): Promise<string>;
  close(): void;
}

/** Connects to an ABCI app at `tcp://host:port` or `unix:///path`. */
export async function connectSocketApp(address: string, opts: { maxMessageBytes?: number } = {}): Promise<SocketApplication> {
  const max = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const conns: Connection[] = [];
  try {
    for (const name of ['consensus', 'mempool', 'query', 'snapshot']) conns.push(new Connection(name, await dial(address), max));
  } catch (err) {
    for (const c of conns) c.close();
    throw err;
  }
  const [consensus, mempool, query] = conns as [Connection, Connection, Connection, Connection];
  return {
    address,
    async echo(message) {
      return (await query.call('echo', { echo: { message } })).echo!.message;
    },
    async info(req: A.RequestInfo) {
      return responseFromWire.info((await query.call('info', { info: requestToWire.info(req) })).info!);
    },
    async query(req: A.RequestQuery) {
      return responseFromWire.query((await query.call('query', { query: requestToWire.query(req) })).query!);
    },
    async checkTx(req: A.RequestCheckTx) {
      return responseFromWire.checkTx((await mempool.call('checkTx', { checkTx: requestToWire.checkTx(req) })).checkTx!);
    },
    async initChain(req: A.RequestInitChain) {
      return responseFromWire.initChain((await consensus.call('initChain', { initChain: requestToWire.initChain(req) })).initChain!);
    },
    async prepareProposal(req: A.RequestPrepareProposal) {
      return responseFromWire.prepareProposal(
        (await consensus.call('prepareProposal', { prepareProposal: requestToWire.prepareProposal(req) })).prepareProposal!,
      );
    },
    async processProposal(req: A.RequestProcessProposal) {
      return responseFromWire.processProposal(
        (await consensus.call('processProposal', { processProposal: requestToWire.processProposal(req) })).processProposal!,
      );
    },
    async finalizeBlock(req: A.RequestFinalizeBlock) {
      return responseFromWire.finalizeBlock((await consensus.call('finalizeBlock', { finalizeBlock: requestToWire.finalizeBlock(req) })).finalizeBlock!);
    },
    async commit() {
      return responseFromWire.commit((await consensus.call('commit', { commit: {} })).commit!);
    },
    close() {
      for (const c of conns) c.close();
    },
  };
}
