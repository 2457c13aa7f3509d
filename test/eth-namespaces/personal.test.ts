/**
 * The personal namespace over HTTP (and WebSocket and in process for unlocking) with viem:
 * keystore accounts, unlocking under `allow-insecure-unlock` (HTTP and WebSocket alike; in process
 * always), signing, recovering and sending with a password; and the refusal of every personal
 * method while `personal` is not in `api`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BaseError, createPublicClient, defineChain, hashMessage, http, parseEther, recoverMessageAddress, webSocket, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initHome } from '../../src/genesis/home.js';
import { createEip1193Provider } from '../../src/node/rpc-eth.js';
import { PERSONAL_ROUTES } from '../../src/rpc/eth/namespaces/personal.js';
import { startNamespaceNode, type NamespaceNode } from './namespace-rpc.js';

const chain = defineChain({
  id: 9000,
  name: 'Chainlet devnet',
  nativeCurrency: { name: 'Chainlet', symbol: 'CHAINLET', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});
const KEY_1 = '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ADDRESS_1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const OTHER = '0x00000000000000000000000000000000000000ee';
const API = ['eth', 'web3', 'net', 'personal'];

type Client = ReturnType<typeof createPublicClient>;
const call = (c: Client, method: string, params: unknown[] = []) => c.request({ method: method as never, params: params as never }) as Promise<unknown>;

function rpcError(e: unknown): { code: number; message: string } {
  expect(e).toBeInstanceOf(BaseError);
  const inner = (e as BaseError).walk((x) => typeof (x as { code?: unknown }).code === 'number') as unknown as { code: number; details: string };
  return { code: inner.code, message: inner.details };
}

describe('personal namespace', () => {
  let n: NamespaceNode;
  let c: Client;
  let created: string;
  beforeAll(async () => {
    n = await startNamespaceNode({ config: { jsonRpc: { api: API } } });
    c = createPublicClient({ chain, transport: http(n.url), cacheTime: 0, pollingInterval: 20 });
    created = (await call(c, 'personal_newAccount', ['s3cret'])) as string;
    expect(await call(c, 'personal_importRawKey', [KEY_1, 'pw'])).toBe(ADDRESS_1);
  });
  afterAll(() => n?.stop());

  it('creates, imports and lists accounts', async () => {
    expect(created).toMatch(/^0x[0-9a-f]{40}$/);
    expect(await call(c, 'personal_listAccounts')).toEqual([created, ADDRESS_1]);
    const dup = await call(c, 'personal_importRawKey', [KEY_1, 'pw']).catch((x: unknown) => x);
    expect(rpcError(dup)).toEqual({ code: -32000, message: 'account already exists' });
  });

  it('signs with the password and recovers the signer', async () => {
    const message = 'hello chainlet';
    const data = `0x${Buffer.from(message).toString('hex')}`;
    const sig = (await call(c, 'personal_sign', [data, ADDRESS_1, 'pw'])) as Hex;
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
    expect((await recoverMessageAddress({ message, signature: sig })).toLowerCase()).toBe(ADDRESS_1);
    expect(await call(c, 'personal_ecRecover', [data, sig])).toBe(ADDRESS_1);
    expect(hashMessage(message)).toMatch(/^0x/);
    const wrong = await call(c, 'personal_sign', [data, ADDRESS_1, 'nope']).catch((x: unknown) => x);
    expect(rpcError(wrong)).toEqual({ code: -32000, message: 'could not decrypt key with given password' });
    const short = await call(c, 'personal_ecRecover', [data, '0x1234']).catch((x: unknown) => x);
    expect(rpcError(short).message).toBe('signature must be 65 bytes long');
  });

  it('sends a transaction with the password (nonce, gas and fees filled)', async () => {
    const before = await c.getBalance({ address: OTHER });
    const hash = (await call(c, 'personal_sendTransaction', [{ from: ADDRESS_1, to: OTHER, value: '0x2a' }, 'pw'])) as Hex;
    const receipt = await c.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.from).toBe(ADDRESS_1);
    expect(await c.getBalance({ address: OTHER })).toBe(before + 42n);
  });

  it('unlocks over HTTP when allow-insecure-unlock is on; an unlocked account sends with eth_sendTransaction', async () => {
    await n.node.internals.devnet.setBalance((await import('@ethereumjs/util')).createAddressFromString(created), parseEther('1'));
    expect(await call(c, 'personal_unlockAccount', [created, 's3cret', 60])).toBe(true);
    const hash = (await call(c, 'eth_sendTransaction', [{ from: created, to: OTHER, value: '0x1' }])) as Hex;
    expect((await c.waitForTransactionReceipt({ hash })).from).toBe(created);
    expect(await call(c, 'personal_lockAccount', [created])).toBe(true);
    const locked = await call(c, 'eth_sendTransaction', [{ from: created, to: OTHER, value: '0x1' }]).catch((x: unknown) => x);
    expect(rpcError(locked).message).toBe('unknown account');
    const bad = await call(c, 'personal_unlockAccount', [created, 'wrong']).catch((x: unknown) => x);
    expect(rpcError(bad).message).toBe('could not decrypt key with given password');
  });
});

describe('personal namespace on a node with a home', () => {
  it('keeps keys as Web3 Secret Storage v3 (scrypt) files under <home>/keystore, read again after a restart', async () => {
    const home = mkdtempSync(join(tmpdir(), 'chainlet-personal-home-'));
    try {
      initHome(home, { chainId: 'chainlet_9000-1', validators: 1 });
      const config = { jsonRpc: { api: [...API, 'admin'] } };
      let n = await startNamespaceNode({ home, config });
      let address: string;
      try {
        const c = createPublicClient({ chain, transport: http(n.url) });
        expect(await call(c, 'admin_datadir')).toBe(home);
        address = (await call(c, 'personal_newAccount', ['pw'])) as string;
        const files = readdirSync(join(home, 'keystore'));
        expect(files).toEqual([expect.stringMatching(new RegExp(`^UTC--.+--${address.slice(2)}$`))]);
        const file = JSON.parse(readFileSync(join(home, 'keystore', files[0]!), 'utf8')) as { version: number; address: string; crypto: { kdf: string } };
        expect(file).toMatchObject({ version: 3, address: address.slice(2), crypto: { kdf: 'scrypt' } });
      } finally {
        await n.stop();
      }
      n = await startNamespaceNode({ home, config });
      try {
        const c = createPublicClient({ chain, transport: http(n.url) });
        expect(await call(c, 'personal_listAccounts')).toEqual([address]);
        expect(await call(c, 'personal_unlockAccount', [address, 'pw', 1])).toBe(true);
      } finally {
        await n.stop();
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('personal namespace with allow-insecure-unlock off', () => {
  let n: NamespaceNode;
  beforeAll(async () => {
    n = await startNamespaceNode({ config: { jsonRpc: { api: API, allowInsecureUnlock: false } } });
  });
  afterAll(() => n?.stop());

  it('refuses to unlock over HTTP and over WebSocket (geth: every transport but IPC); the in-process provider unlocks', async () => {
    const httpClient = createPublicClient({ chain, transport: http(n.url) });
    const address = await call(httpClient, 'personal_importRawKey', [KEY_1, 'pw']);
    const e = await call(httpClient, 'personal_unlockAccount', [address, 'pw']).catch((x: unknown) => x);
    expect(rpcError(e)).toEqual({ code: -32000, message: 'account unlock with HTTP access is forbidden' });
    const ws = createPublicClient({ chain, transport: webSocket(n.wsUrl) });
    try {
      const overWs = await call(ws, 'personal_unlockAccount', [address, 'pw', 0]).catch((x: unknown) => x);
      expect(rpcError(overWs)).toEqual({ code: -32000, message: 'account unlock with HTTP access is forbidden' });
      expect(n.node.internals.keystore.isUnlocked(address as string)).toBe(false);
    } finally {
      await (await ws.transport.getRpcClient()).close();
    }
    const provider = createEip1193Provider(n.node);
    try {
      expect(await provider.request({ method: 'personal_unlockAccount', params: [address, 'pw', 0] })).toBe(true);
      expect(n.node.internals.keystore.isUnlocked(address as string)).toBe(true);
    } finally {
      provider.close();
    }
  });
});

describe('personal namespace when not in api', () => {
  let n: NamespaceNode;
  beforeAll(async () => {
    n = await startNamespaceNode();
  });
  afterAll(() => n?.stop());

  it('answers every personal method as an unknown method', async () => {
    const c = createPublicClient({ chain, transport: http(n.url) });
    for (const { method } of PERSONAL_ROUTES) {
      const e = await call(c, method).catch((x: unknown) => x);
      expect(rpcError(e)).toEqual({
        code: -32601,
        message: expect.stringMatching(
          new RegExp(`^the method ${method} does not exist/is not available \\(the personal namespace is off: start with --json-rpc\\.api \\S*,personal, `),
        ),
      });
    }
  });
});
