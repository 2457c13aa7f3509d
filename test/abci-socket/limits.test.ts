/**
 * The ABCI socket server under hostile clients: a frame over `maxMessageBytes` closes its
 * connection with a logged reason (one at the limit is served); a client that never reads its
 * answers stops being read (backpressure) and is served again once it reads; whatever a connection
 * held is gone once it closes.
 */
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Application } from '../../src/abci/application.js';
import { encodeFrame, FrameReader } from '../../src/abci-server/framing.js';
import { startAbciServer, type AbciServer } from '../../src/abci-server/server.js';
import { WireRequest, WireResponse } from '../../src/abci-server/wire.js';

// Echo and Flush never reach the app.
const NO_APP = {} as Application;

let server: AbciServer | undefined;
const clients: Socket[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy();
  await server?.stop();
  server = undefined;
});

function dial(address: string): Promise<Socket> {
  const m = /^tcp:\/\/(.+):(\d+)$/.exec(address)!;
  return new Promise((resolve, reject) => {
    const s = connect(Number(m[2]), m[1]!);
    clients.push(s);
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

const echoFrame = (message: string): Uint8Array => encodeFrame(WireRequest.encode({ echo: { message } }).finish());

/** An Echo request whose encoded Request is exactly `bytes` long. */
function echoOfSize(bytes: number): string {
  for (let n = bytes; n > 0; n--) {
    const message = 'x'.repeat(n);
    if (WireRequest.encode({ echo: { message } }).finish().length === bytes) return message;
  }
  throw new Error(`no Echo request of ${bytes} bytes`);
}

const closed = (s: Socket): Promise<void> => new Promise((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));

describe('ABCI socket limits', () => {
  it('serves a frame of exactly maxMessageBytes and closes the connection on one byte more, logging why', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    server = await startAbciServer({ app: NO_APP, address: 'tcp://127.0.0.1:0', maxMessageBytes: 1000, logger });

    const ok = await dial(server.address);
    const reader = new FrameReader();
    const answered = new Promise<string>((resolve) =>
      ok.on('data', (c: Buffer) => reader.push(c).forEach((f) => resolve(WireResponse.decode(f).echo!.message))),
    );
    const atLimit = echoOfSize(1000);
    ok.write(echoFrame(atLimit));
    expect(await answered).toBe(atLimit);

    const bad = await dial(server.address);
    bad.write(echoFrame(echoOfSize(1001)));
    await closed(bad);
    expect(lines.map((l) => JSON.parse(l) as { msg: string; err: { message: string } })).toMatchObject([
      { msg: 'abci connection closed', err: { message: 'ABCI message of 1001 bytes is over the limit of 1000 bytes' } },
    ]);
    // The other connection is still served.
    await vi.waitFor(() => expect(server!.stats()).toHaveLength(1));
    expect(ok.destroyed).toBe(false);
  });

  it('stops reading from a client that does not read its answers, and serves it again once it does', async () => {
    server = await startAbciServer({ app: NO_APP, address: 'tcp://127.0.0.1:0', logger: pino({ level: 'silent' }) });
    const client = await dial(server.address);
    client.pause(); // reads nothing for now
    const frame = echoFrame('y'.repeat(1 << 20));
    const sent = 64;
    for (let i = 0; i < sent; i++) client.write(frame); // 64 MiB of requests, one buffer written 64 times

    await vi.waitFor(() => expect(server!.stats()[0]?.paused).toBe(true), { timeout: 20_000, interval: 10 });
    const held = server.stats()[0]!;
    // Paused with its own answers unsent: it holds at most the frame it is reading and one request.
    expect(held.writeBacklogBytes).toBeGreaterThan(0);
    expect(held.bufferedBytes).toBeLessThan(frame.length);
    expect(held.queuedRequests).toBeLessThanOrEqual(1);
    // The client's requests wait on its side: the server did not take them all.
    expect(client.writableLength).toBeGreaterThan(0);

    const reader = new FrameReader();
    let answers = 0;
    client.on('data', (c: Buffer) => (answers += reader.push(c).length));
    client.resume();
    await vi.waitFor(() => expect(answers).toBe(sent), { timeout: 30_000, interval: 10 });
    expect(server.stats()).toMatchObject([{ paused: false, bufferedBytes: 0, queuedRequests: 0 }]);
  });

  it('keeps reading with maxQueueBytes of requests waiting for a busy app, and stops one request past it', async () => {
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const app = {
      info: async () => (calls++, await busy, { data: '', version: '', appVersion: 0, lastBlockHeight: 0, lastBlockAppHash: new Uint8Array() }),
    } as unknown as Application;
    const infoFrame = (version: string) => encodeFrame(WireRequest.encode({ info: { version, blockVersion: 0n, p2pVersion: 0n, abciVersion: '' } }).finish());
    const payload = (f: Uint8Array) => new FrameReader().push(f)[0]!.length;
    const first = infoFrame('first');
    const QUEUE = payload(infoFrame('q'.repeat(200)));
    server = await startAbciServer({ app, address: 'tcp://127.0.0.1:0', maxQueueBytes: QUEUE, logger: pino({ level: 'silent' }) });
    const client = await dial(server.address);
    client.write(first); // taken by the app, which holds it
    await vi.waitFor(() => expect(calls).toBe(1), { timeout: 20_000, interval: 5 });
    expect(server.stats()[0]).toMatchObject({ queuedRequests: 0, paused: false });
    client.write(infoFrame('q'.repeat(200))); // exactly maxQueueBytes waiting: still read
    await vi.waitFor(() => expect(server!.stats()[0]).toMatchObject({ queuedRequests: 1 }), { timeout: 20_000, interval: 5 });
    expect(server.stats()[0]!.paused).toBe(false);
    client.write(infoFrame('r')); // past it: reading stops
    await vi.waitFor(() => expect(server!.stats()[0]).toMatchObject({ queuedRequests: 2 }), { timeout: 20_000, interval: 5 });
    expect(server.stats()[0]!.paused).toBe(true);
    const reader = new FrameReader();
    let answers = 0;
    client.on('data', (c: Buffer) => (answers += reader.push(c).length));
    release();
    await vi.waitFor(() => expect(answers).toBe(3), { timeout: 20_000, interval: 5 });
    expect(server.stats()).toMatchObject([{ paused: false, queuedRequests: 0 }]);
  });

  it('releases a connection that closes while paused with answers unsent', async () => {
    server = await startAbciServer({ app: NO_APP, address: 'tcp://127.0.0.1:0', logger: pino({ level: 'silent' }) });
    const client = await dial(server.address);
    client.pause();
    const frame = echoFrame('z'.repeat(1 << 20));
    for (let i = 0; i < 64; i++) client.write(frame);
    await vi.waitFor(() => expect(server!.stats()[0]?.paused).toBe(true), { timeout: 20_000, interval: 10 });

    client.destroy();
    await vi.waitFor(() => expect(server!.stats()).toEqual([]), { timeout: 20_000, interval: 10 });
  });
});
