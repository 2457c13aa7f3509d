/**
 * CORS on a node with a home: no cross-origin access by default on the Ethereum JSON-RPC, the
 * routing API and the CometBFT RPC (as CometBFT's empty `cors_allowed_origins`), and exactly the
 * configured origins once `[json-rpc] http-corsdomain` / `[routing] cors-allowed-origins` name them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initHome } from '../../src/genesis/home.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

const FOREIGN = 'http://evil.example';
const APP = 'http://app.example';
const homes: string[] = [];
const nodes: ChainletNode[] = [];

afterAll(async () => {
  for (const n of nodes) await n.stop();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'chainlet-cors-home-'));
  homes.push(home);
  initHome(home, { chainId: 'chainlet_9000-1', validators: 1 });
  return home;
}

async function allowOrigin(node: ChainletNode, origin: string): Promise<Record<string, string | null>> {
  const eth = await fetch(node.urls.jsonRpc!, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
  });
  const routing = await fetch(`${node.urls.routing!}/v2/info/chains`, { headers: { origin } });
  const comet = await fetch(`${node.urls.rpc!}/health`, { headers: { origin } });
  return {
    eth: eth.headers.get('access-control-allow-origin'),
    routing: routing.headers.get('access-control-allow-origin'),
    comet: comet.headers.get('access-control-allow-origin'),
  };
}

describe('CORS on a node with a home', () => {
  it('writes empty origin lists into a new home', () => {
    const home = newHome();
    const app = readFileSync(join(home, 'config', 'app.toml'), 'utf8');
    expect(app).toMatch(/^http-corsdomain = \[\]$/m);
    expect(app).toMatch(/^cors-allowed-origins = \[\]$/m);
  });

  it('sends no Access-Control-Allow-Origin to a foreign origin by default', async () => {
    const node = await startTestNode({ home: newHome() });
    nodes.push(node);
    expect(await allowOrigin(node, FOREIGN)).toEqual({ eth: null, routing: null, comet: null });
  });

  it('allows exactly the configured origin', async () => {
    const node = await startTestNode({
      home: newHome(),
      config: { jsonRpc: { httpCorsDomain: [APP] }, routing: { corsAllowedOrigins: [APP] }, rpc: { corsAllowedOrigins: [APP] } },
    });
    nodes.push(node);
    expect(await allowOrigin(node, APP)).toEqual({ eth: APP, routing: APP, comet: APP });
    expect(await allowOrigin(node, FOREIGN)).toEqual({ eth: null, routing: null, comet: null });
  });
});
