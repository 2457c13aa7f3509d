/**
 * Slow subscribers: a WebSocket client that subscribes and then stops reading is closed (1008,
 * with the reason) once its queue passes the per-connection bound, while a client that reads
 * keeps getting every event and HTTP keeps answering. The bound is small here
 * (`[rpc] experimental_websocket_write_buffer_bytes`, `[json-rpc] ws-write-buffer-bytes`), so the
 * kernel's socket buffers fill first and the test mines until the server has given up on the
 * slow client: each loop waits for an observable effect, never for time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { ChainletNode } from '../../src/node/node.js';
import { closed, openWs } from '../../src/rpc/transport/test-helpers.js';
import { startTestNode } from '../helpers/node.js';

const BOUND = 65_536;
const SUBS = 100;
/** Blocks mined before the test gives up waiting for the server to close the slow client. */
const MAX_BLOCKS = 2000;

let node: ChainletNode;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  node = await startTestNode({
    config: {
      rpc: { maxSubscriptionsPerClient: SUBS, experimentalWebsocketWriteBufferBytes: BOUND },
      jsonRpc: { wsWriteBufferBytes: BOUND, api: ['eth', 'web3', 'net'] },
    },
  });
}, 30_000);

afterAll(async () => {
  for (const s of sockets) s.terminate();
  await node?.stop();
});

function tcp(ws: WebSocket): { pause(): void; resume(): void } {
  return (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
}

async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(node.urls.jsonRpc!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const json = (await res.json()) as { result?: unknown; error?: unknown };
  if (json.error) throw new Error(JSON.stringify(json.error));
  return json.result;
}

/** Sends each request and resolves once every one of them has its reply. */
async function callAll(ws: WebSocket, requests: object[]): Promise<void> {
  let pending = requests.length;
  await new Promise<void>((resolve) => {
    const onMessage = (d: Buffer): void => {
      const m = JSON.parse(d.toString()) as { id?: unknown };
      if (m.id !== undefined && --pending === 0) {
        ws.off('message', onMessage);
        resolve();
      }
    };
    ws.on('message', onMessage);
    for (const r of requests) ws.send(JSON.stringify(r));
  });
}

/** Resolves once `ws` has received `n` more messages for which `match` holds. */
function received(ws: WebSocket, n: number, match: (m: Record<string, unknown>) => boolean): Promise<void> {
  return new Promise((resolve) => {
    let left = n;
    const onMessage = (d: Buffer): void => {
      if (match(JSON.parse(d.toString()) as Record<string, unknown>) && --left === 0) {
        ws.off('message', onMessage);
        resolve();
      }
    };
    ws.on('message', onMessage);
  });
}

/** Mines in steps of `step` blocks, each step awaited on the reading client, until `given` holds. */
async function mineUntil(given: () => boolean, normal: WebSocket, isEvent: (m: Record<string, unknown>) => boolean, step = 5): Promise<number> {
  let mined = 0;
  while (!given()) {
    if (mined >= MAX_BLOCKS) throw new Error(`the slow client was still open after ${mined} blocks`);
    const seen = received(normal, step, isEvent);
    await rpc('anvil_mine', [`0x${step.toString(16)}`]);
    await seen;
    mined += step;
  }
  return mined;
}

describe('a WebSocket subscriber that never reads', () => {
  it('is closed on the CometBFT /websocket (NewBlock) while a reading client keeps its events', async () => {
    const bus = node.internals.eventBus;
    const before = bus.numClients();
    const slow = await openWs(node.urls.rpcWs!);
    const normal = await openWs(node.urls.rpcWs!);
    sockets.push(slow, normal);
    await callAll(
      slow,
      // Distinct queries that every NewBlock matches (the base fee stays far above 100 for the few dozen blocks this takes).
      Array.from({ length: SUBS }, (_, i) => ({
        jsonrpc: '2.0',
        id: i,
        method: 'subscribe',
        params: { query: `tm.event='NewBlock' AND fee_market.base_fee > ${i}` },
      })),
    );
    await callAll(normal, [{ jsonrpc: '2.0', id: 'n', method: 'subscribe', params: { query: "tm.event='NewBlock'" } }]);
    expect(bus.numClients()).toBe(before + 2);
    tcp(slow).pause();
    const slowClosed = closed(slow);
    const isNewBlock = (m: Record<string, unknown>): boolean =>
      (m['result'] as { data?: { type?: string } } | undefined)?.data?.type === 'tendermint/event/NewBlock';

    await mineUntil(() => bus.numClients() === before + 1, normal, isNewBlock);
    tcp(slow).resume();
    expect(await slowClosed).toEqual({ code: 1008, reason: `slow client: over ${BOUND} bytes waiting to be sent` });

    // The reading client is still served, and so is HTTP.
    const next = received(normal, 1, isNewBlock);
    await rpc('anvil_mine', ['0x1']);
    await next;
    expect((await fetch(`${node.urls.rpc!}/health`)).status).toBe(200);
  }, 120_000);

  it('is closed on the Ethereum WebSocket (newHeads) while a reading client keeps its events', async () => {
    // The block listeners of the EVM view: one per newHeads subscription (read to see the slow client's go).
    const listeners = (node.internals.app.evm as unknown as { listeners: Set<unknown> }).listeners;
    expect(listeners).toBeInstanceOf(Set);
    const before = listeners.size;
    const slow = await openWs(node.urls.jsonRpcWs!);
    const normal = await openWs(node.urls.jsonRpcWs!);
    sockets.push(slow, normal);
    await callAll(
      slow,
      Array.from({ length: SUBS }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params: ['newHeads'] })),
    );
    await callAll(normal, [{ jsonrpc: '2.0', id: 'n', method: 'eth_subscribe', params: ['newHeads'] }]);
    expect(listeners.size).toBe(before + SUBS + 1);
    tcp(slow).pause();
    const slowClosed = closed(slow);
    const isHead = (m: Record<string, unknown>): boolean => m['method'] === 'eth_subscription';

    await mineUntil(() => listeners.size === before + 1, normal, isHead);
    tcp(slow).resume();
    expect(await slowClosed).toEqual({ code: 1008, reason: `slow client: over ${BOUND} bytes waiting to be sent` });

    const next = received(normal, 1, isHead);
    await rpc('anvil_mine', ['0x1']);
    await next;
    expect(await rpc('eth_chainId')).toBe('0x2328');
  }, 120_000);
});
