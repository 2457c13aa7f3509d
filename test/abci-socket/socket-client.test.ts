/**
 * The ABCI socket client (the CometBFT side of proxy_app): an app's exception, an unreachable or
 * malformed address and a connection the app closes all reject the call with AbciClientError.
 */
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { Application } from '../../src/abci/application.js';
import { startAbciServer, type AbciServer } from '../../src/abci-server/server.js';
import { AbciClientError, connectSocketApp } from '../../src/abci-server/socket-client.js';
import { KvStoreApp } from '../../src/apps/kvstore/kvstore-app.js';
import { MemoryLevel } from 'memory-level';

const servers: AbciServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

async function serve(app: Application): Promise<AbciServer> {
  const s = await startAbciServer({ app, address: 'tcp://127.0.0.1:0', logger: pino({ level: 'silent' }) });
  servers.push(s);
  return s;
}

describe('connectSocketApp', () => {
  it('carries every call of a real app and its answers, in order', async () => {
    const db = new MemoryLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' });
    const kv = await KvStoreApp.open(db.sublevel('app', { keyEncoding: 'utf8', valueEncoding: 'view' }) as never);
    const server = await serve(kv);
    const app = await connectSocketApp(server.address);
    try {
      expect(await app.echo('hello')).toBe('hello');
      const info = await app.info({ version: '0.38.25', blockVersion: 11, p2pVersion: 8, abciVersion: '2.0.0' });
      expect(info.lastBlockHeight).toBe(0);
      const checks = await Promise.all(['a=1', 'b=2', 'c=3'].map((t) => app.checkTx({ tx: new TextEncoder().encode(t), type: 0 })));
      expect(checks.map((c) => c.code)).toEqual([0, 0, 0]);
    } finally {
      app.close();
    }
  });

  it('turns Response.exception into an AbciClientError naming the call', async () => {
    const failing = {
      async query() {
        throw new Error('store is gone');
      },
    } as unknown as Application;
    const server = await serve(failing);
    const app = await connectSocketApp(server.address);
    try {
      const err = await app.query({ path: '/x', data: new Uint8Array(0), height: 0, prove: false }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AbciClientError);
      expect((err as Error).message).toBe('the app answered query with an exception: store is gone');
    } finally {
      app.close();
    }
  });

  it('refuses a malformed or unreachable address, and fails calls once the app is gone', async () => {
    await expect(connectSocketApp('127.0.0.1:26658')).rejects.toThrow(/invalid app address "127.0.0.1:26658": expected tcp:\/\/host:port or unix:\/\/\/path/);
    await expect(connectSocketApp('tcp://127.0.0.1:9')).rejects.toThrow(/cannot reach the app at tcp:\/\/127.0.0.1:9/);
    const db = new MemoryLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' });
    const server = await startAbciServer({ app: await KvStoreApp.open(db as never), address: 'tcp://127.0.0.1:0', logger: pino({ level: 'silent' }) });
    const app = await connectSocketApp(server.address);
    await server.stop();
    await expect(app.echo('x')).rejects.toThrow(/connection to the app (closed|: )/);
    app.close();
  });
});
