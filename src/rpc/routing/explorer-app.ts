/**
 * The live explorer (GET /explorer/): a page and a script from the package's `explorer/` folder,
 * plus the two upstreams it reads — the chain's CometBFT RPC and Ethereum JSON-RPC — forwarded by
 * this server, and the SVM chain's Solana JSON-RPC when the network has one (so the page works from this origin without opening either RPC to cross-origin
 * requests), and its config (chains, the CometBFT WebSocket it subscribes to, whether devnet
 * control is on). Nothing but those two upstreams can be reached through it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reply, RouteContext } from './context.js';
import { json } from './context.js';
import { chainRecords } from './chains.js';
import { InvalidArgumentError, NotFoundError } from './errors.js';
import { transferStatusOf } from './transfer-status.js';

/** `/explorer/` and `/explorer` (the router drops a trailing slash). */
export const EXPLORER_APP_PATH = '/explorer';

/** The package's explorer/ folder: found by walking up from this module (src/, dist/ or the bundle's chunks). */
function assetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      readFileSync(join(dir, 'explorer', 'index.html'));
      return join(dir, 'explorer');
    } catch {
      dir = dirname(dir);
    }
  }
  throw new NotFoundError('the explorer assets are not installed');
}

const cache = new Map<string, string>();
function asset(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(join(assetsDir(), name), 'utf8');
    cache.set(name, text);
  }
  return text;
}

export async function handleExplorerApp(): Promise<Reply> {
  return { kind: 'html', body: asset('index.html') };
}

export async function handleExplorerScript(): Promise<Reply> {
  return { kind: 'asset', contentType: 'text/javascript; charset=utf-8', body: asset('app.js') };
}

export async function handleExplorerStyle(): Promise<Reply> {
  return { kind: 'asset', contentType: 'text/css; charset=utf-8', body: asset('style.css') };
}

export async function handleExplorerConfig(ctx: RouteContext): Promise<Reply> {
  const e = ctx.env.explorer;
  return json({
    chains: chainRecords(ctx.env, ctx.baseUrl()).map((r) => ({ chain_id: r.chain_id, chain_type: r.chain_type, pretty_name: r.pretty_name })),
    comet_ws: e?.cometWs ?? null,
    // The CometBFT-style chains the page can switch between: the first is the EVM chain.
    comet_chains: [...(e?.cometRpc ? [{ chain_id: ctx.env.chains[0]?.chain.cosmosChainId ?? '', ws: e.cometWs ?? null, evm: true }] : []), ...(e?.otherCometChains ?? []).map((c) => ({ chain_id: c.chainId, ws: c.ws ?? null, evm: false }))],
    eth: e?.ethRpc !== undefined,
    svm: e?.svmRpc !== undefined,
    devnet: e?.devnet ?? false,
  });
}

/** The latest IBC transfers with each packet's txs and state (the explorer's IBC view). */
export async function handleExplorerIbc(ctx: RouteContext): Promise<Reply> {
  const list = ctx.env.explorer?.ibcPackets;
  if (!list) return json({ enabled: false, packets: [] });
  const packets = (await list(50)).map((p) => {
    const t = transferStatusOf(p).transfer_sequence[0]!.ibc_transfer;
    const tx = (x: { chainId: string; txHash: string; time: string } | undefined) => x && { chain_id: x.chainId, tx_hash: x.txHash, on_chain_at: x.time };
    return {
      src_chain_id: p.srcChainId,
      dst_chain_id: p.dstChainId,
      src_channel: p.srcChannel,
      dst_channel: p.dstChannel,
      sequence: p.sequence.toString(),
      denom: p.denom,
      amount: p.amount,
      sender: p.sender,
      receiver: p.receiver,
      state: t.state,
      error: t.packet_txs.error?.message ?? p.receive?.ackError ?? null,
      send_tx: tx(p.send) ?? null,
      receive_tx: tx(p.receive) ?? null,
      acknowledge_tx: tx(p.acknowledge) ?? null,
      timeout_tx: tx(p.timeout) ?? null,
    };
  });
  return json({ enabled: true, packets });
}

export async function handleExplorerMempool(ctx: RouteContext): Promise<Reply> {
  const m = ctx.env.explorer?.mempool;
  if (!m) throw new NotFoundError('this node lists no mempool');
  return json(m());
}

/**
 * The methods the page calls, and only those: this server may listen where the RPCs themselves do
 * not (a public routing API beside a local-only JSON-RPC), so it forwards reads the explorer needs,
 * not the whole RPC.
 */
const ALLOWED: Record<string, ReadonlySet<string>> = {
  'CometBFT RPC': new Set(['status', 'block', 'commit', 'tx', 'validators', 'genesis', 'unconfirmed_txs', 'num_unconfirmed_txs', 'blockchain']),
  'Ethereum JSON-RPC': new Set(['eth_getTransactionByHash', 'eth_getTransactionReceipt', 'eth_getBalance', 'eth_getTransactionCount', 'eth_getCode', 'eth_chainId', 'eth_blockNumber', 'chainlet_setValidatorOnline']),
  'Solana JSON-RPC': new Set(['getTransaction', 'getBalance', 'getTokenAccountsByOwner', 'getSlot', 'getBlockHeight', 'getAccountInfo']),
};

async function forward(url: string | undefined, body: unknown, what: string): Promise<Reply> {
  if (url === undefined) throw new NotFoundError(`this node serves no ${what}`);
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) throw new InvalidArgumentError('a JSON-RPC request object is required');
  const method = (body as { method?: unknown }).method;
  if (typeof method !== 'string' || !ALLOWED[what]!.has(method)) throw new InvalidArgumentError(`method ${String(method)} is not available through the explorer`);
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
  return json(await r.json());
}

/** `?chain=<id>` picks another CometBFT-style chain of the network (default: the EVM chain). */
export const handleExplorerComet = (ctx: RouteContext, p: { body: unknown; chain: string | null }) => {
  const e = ctx.env.explorer;
  const other = p.chain ? e?.otherCometChains?.find((c) => c.chainId === p.chain) : undefined;
  if (p.chain && !other && p.chain !== ctx.env.chains[0]?.chain.cosmosChainId) throw new NotFoundError(`no CometBFT chain ${p.chain} in this network`);
  return forward(other ? other.rpc : e?.cometRpc, p.body, 'CometBFT RPC');
};
export const handleExplorerEth = (ctx: RouteContext, p: { body: unknown }) => forward(ctx.env.explorer?.ethRpc, p.body, 'Ethereum JSON-RPC');
export const handleExplorerSvm = (ctx: RouteContext, p: { body: unknown }) => forward(ctx.env.explorer?.svmRpc, p.body, 'Solana JSON-RPC');
