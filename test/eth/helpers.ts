/**
 * Fixtures for the Ethereum JSON-RPC tests: a devnet with its eth servers on OS-chosen ports (the
 * node's own when servers.ts starts them, else a dedicated pair), viem clients on both
 * transports, raw JSON-RPC helpers, and a tiny EVM assembler for hand-made contracts.
 */
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  webSocket,
  type Account,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { DeepPartial, NodeConfig } from '../../src/config/types.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startEthRpc } from '../../src/node/rpc-eth.js';
import { DEV } from '../helpers/txs.js';
import { startTestNode } from '../helpers/node.js';

export { DEV };

export const chainlet: Chain = defineChain({
  id: 9000,
  name: 'Chainlet devnet',
  nativeCurrency: { name: 'Chainlet', symbol: 'CHAINLET', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'], webSocket: ['ws://127.0.0.1:8546'] } },
});

export interface EthTestNode {
  node: ChainletNode;
  url: string;
  wsUrl: string;
  stop(): Promise<void>;
}

export async function startEthTestNode(opts: { config?: DeepPartial<NodeConfig> } = {}): Promise<EthTestNode> {
  const node = await startTestNode({ config: opts.config, servers: false });
  try {
    const rpc = await startEthRpc(node);
    return {
      node,
      url: rpc.url,
      wsUrl: rpc.wsUrl,
      async stop() {
        await rpc.stop();
        await node.stop();
      },
    };
  } catch (e) {
    await node.stop();
    throw e;
  }
}

export const account0: Account = privateKeyToAccount(DEV[0]!.privateKey as Hex);
export const account1: Account = privateKeyToAccount(DEV[1]!.privateKey as Hex);

export interface Clients {
  public: PublicClient<Transport, Chain>;
  wallet: WalletClient<Transport, Chain, Account>;
}

export function httpClients(url: string): Clients {
  const transport = http(url);
  return {
    public: createPublicClient({ chain: chainlet, transport, pollingInterval: 50 }),
    wallet: createWalletClient({ chain: chainlet, transport, account: account0, pollingInterval: 50 }),
  };
}

export function wsClients(wsUrl: string): Clients {
  const transport = webSocket(wsUrl);
  return {
    public: createPublicClient({ chain: chainlet, transport, pollingInterval: 50 }),
    wallet: createWalletClient({ chain: chainlet, transport, account: account0, pollingInterval: 50 }),
  };
}

let rawId = 0;

export interface RpcReply {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** One JSON-RPC POST; `body` given as an object or as raw text. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

export async function rpc(url: string, method: string, params: unknown[] = []): Promise<RpcReply> {
  const { text } = await post(url, { jsonrpc: '2.0', id: ++rawId, method, params });
  return JSON.parse(text) as RpcReply;
}

/** The result of `method`, or a thrown Error carrying the JSON-RPC error. */
export async function call<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const r = await rpc(url, method, params);
  if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code, data: r.error.data });
  return r.result as T;
}

export async function waitFor<T>(fn: () => Promise<T | null | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Counts the new-block listeners the node gains from now on (each newHeads or logs subscription,
 * and a server's filter registry, adds one), so a test can wait until a client's subscriptions
 * are really in place instead of sleeping. `restore()` puts the plain method back.
 */
export function watchBlockListeners(node: ChainletNode): { readonly count: number; restore(): void } {
  const view = node.internals.app.evm;
  const original = view.onBlock;
  let count = 0;
  view.onBlock = (listener) => {
    count++;
    const off = original.call(view, listener);
    return () => {
      count--;
      off();
    };
  };
  return {
    get count() {
      return count;
    },
    restore() {
      view.onBlock = original;
    },
  };
}

/** An HTTP transport that records the JSON-RPC methods it sends (to wait for a client's first poll). */
export function recordingHttp(url: string): { transport: Transport; methods: string[] } {
  const methods: string[] = [];
  const transport = http(url, {
    onFetchRequest: (_req, init) => {
      const body = JSON.parse(String(init.body)) as { method: string } | { method: string }[];
      for (const r of Array.isArray(body) ? body : [body]) methods.push(r.method);
    },
  });
  return { transport, methods };
}

export const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`;

// ── a tiny EVM assembler: "PUSH1 0x2a PUSH1 0 SSTORE STOP" → bytecode ───────────────────────

const OPS: Record<string, number> = {
  STOP: 0x00,
  ADD: 0x01,
  MUL: 0x02,
  SUB: 0x03,
  DIV: 0x04,
  LT: 0x10,
  GT: 0x11,
  EQ: 0x14,
  ISZERO: 0x15,
  AND: 0x16,
  NOT: 0x19,
  SHA3: 0x20,
  ADDRESS: 0x30,
  BALANCE: 0x31,
  CALLER: 0x33,
  CALLVALUE: 0x34,
  CALLDATALOAD: 0x35,
  CALLDATASIZE: 0x36,
  CODECOPY: 0x39,
  RETURNDATASIZE: 0x3d,
  NUMBER: 0x43,
  POP: 0x50,
  MLOAD: 0x51,
  MSTORE: 0x52,
  SLOAD: 0x54,
  SSTORE: 0x55,
  JUMP: 0x56,
  JUMPI: 0x57,
  GAS: 0x5a,
  JUMPDEST: 0x5b,
  PUSH0: 0x5f,
  DUP1: 0x80,
  DUP2: 0x81,
  DUP3: 0x82,
  SWAP1: 0x90,
  SWAP2: 0x91,
  LOG0: 0xa0,
  LOG1: 0xa1,
  CREATE: 0xf0,
  CALL: 0xf1,
  RETURN: 0xf3,
  DELEGATECALL: 0xf4,
  STATICCALL: 0xfa,
  REVERT: 0xfd,
  INVALID: 0xfe,
};

/**
 * Assembles mnemonics; `name:` marks a JUMPDEST and `@name` pushes its offset (PUSH2).
 * Numbers after PUSHn are decimal or 0x hex.
 */
export function asm(src: string): Hex {
  const toks = src.trim().split(/\s+/);
  const labels = new Map<string, number>();
  const emit = (resolve: boolean): number[] => {
    const out: number[] = [];
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i]!;
      if (t.endsWith(':')) {
        labels.set(t.slice(0, -1), out.length);
        out.push(OPS['JUMPDEST']!);
        continue;
      }
      if (t.startsWith('@')) {
        const at = resolve ? labels.get(t.slice(1)) : 0;
        if (at === undefined) throw new Error(`unknown label ${t}`);
        out.push(0x61, at >> 8, at & 0xff);
        continue;
      }
      const u = t.toUpperCase();
      const push = /^PUSH(\d+)$/.exec(u);
      if (push && u !== 'PUSH0') {
        const n = Number(push[1]);
        const v = BigInt(toks[++i]!);
        out.push(0x5f + n);
        for (let k = n - 1; k >= 0; k--) out.push(Number((v >> BigInt(8 * k)) & 0xffn));
        continue;
      }
      const op = OPS[u];
      if (op === undefined) throw new Error(`unknown opcode ${t}`);
      out.push(op);
    }
    return out;
  };
  emit(false);
  return `0x${Buffer.from(emit(true)).toString('hex')}`;
}

/** Init code that deploys `runtime` as is. */
export function deployCode(runtime: Hex): Hex {
  const len = (runtime.length - 2) / 2;
  // PUSH2 len DUP1 PUSH1 <offset> PUSH0 CODECOPY PUSH0 RETURN: the prefix is 10 bytes.
  const prefix = asm(`PUSH2 ${len} DUP1 PUSH1 10 PUSH0 CODECOPY PUSH0 RETURN`);
  return `${prefix}${runtime.slice(2)}` as Hex;
}
