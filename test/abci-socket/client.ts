/**
 * A conformance client of the ABCI socket protocol, standing in for CometBFT (no CometBFT binary
 * runs on these machines): one connection as CometBFT opens four, length-prefixed
 * `tendermint.abci.Request`s out, `Response`s back in order, encoded by the same generated types.
 */
import { connect, type Socket } from 'node:net';
import { encodeFrame, FrameReader } from '../../src/abci-server/framing.js';
import { WireRequest, WireResponse, type W } from '../../src/abci-server/wire.js';

export interface AbciConnection {
  call(req: W.Request): Promise<W.Response>;
  readonly socket: Socket;
  /** Resolves when the server closes the connection. */
  readonly closed: Promise<void>;
  close(): void;
}

export function connectAbci(address: string): Promise<AbciConnection> {
  return new Promise((resolve, reject) => {
    const socket = address.startsWith('unix://')
      ? connect(address.slice('unix://'.length))
      : (() => {
          const m = /^tcp:\/\/(.+):(\d+)$/.exec(address)!;
          return connect(Number(m[2]), m[1]);
        })();
    const reader = new FrameReader();
    const pending: { resolve: (r: W.Response) => void; reject: (e: Error) => void }[] = [];
    let onClose!: () => void;
    const closed = new Promise<void>((r) => (onClose = r));
    socket.on('data', (chunk: Buffer) => {
      for (const frame of reader.push(chunk)) pending.shift()?.resolve(WireResponse.decode(frame));
    });
    socket.on('close', () => {
      for (const p of pending.splice(0)) p.reject(new Error('connection closed'));
      onClose();
    });
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        socket,
        closed,
        call: (req) =>
          new Promise((res, rej) => {
            pending.push({ resolve: res, reject: rej });
            socket.write(encodeFrame(WireRequest.encode(req).finish()));
          }),
        close: () => socket.destroy(),
      }),
    );
    socket.once('error', reject);
  });
}
