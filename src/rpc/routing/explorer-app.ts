/**
 * The live explorer (GET /explorer/): a page, a script and a style sheet from the package's
 * `explorer/` folder, its config (chains and their address forms, the CometBFT WebSockets it
 * subscribes to, whether devnet control is on and where), the mempool and IBC views. Its reads of
 * the chains' RPCs go through the proxies of explorer-proxy.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reply, RouteContext } from './context.js';
import { json } from './context.js';
import { NotFoundError } from './errors.js';
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

/** The script's module of formatting (amounts, times, address forms). */
export async function handleExplorerFormat(): Promise<Reply> {
  return { kind: 'asset', contentType: 'text/javascript; charset=utf-8', body: asset('format.js') };
}

export async function handleExplorerStyle(): Promise<Reply> {
  return { kind: 'asset', contentType: 'text/css; charset=utf-8', body: asset('style.css') };
}

export async function handleExplorerConfig(ctx: RouteContext): Promise<Reply> {
  const e = ctx.env.explorer;
  return json({
    // Each face of each chain, with the address forms it takes: `account` groups the faces of one
    // chain (an Ethermint-style chain's Cosmos and EVM faces hold the same accounts, 0x ⇄ bech32).
    chains: ctx.env.chains.flatMap((rc) =>
      rc.records(ctx.baseUrl()).map((r) => ({
        chain_id: r.chain_id,
        chain_type: r.chain_type,
        pretty_name: r.pretty_name,
        bech32_prefix: r.bech32_prefix,
        account: rc.chain.cosmosChainId,
        address_forms: r.chain_type === 'evm' ? ['hex'] : r.chain_type === 'svm' ? ['base58'] : ['bech32', ...(rc.chain.evmChainId !== '' ? ['hex'] : [])],
      })),
    ),
    comet_ws: e?.cometWs ?? null,
    // The CometBFT-style chains the page can switch between: the first is the EVM chain.
    comet_chains: [
      ...(e?.cometRpc ? [{ chain_id: ctx.env.chains[0]?.chain.cosmosChainId ?? '', ws: e.cometWs ?? null, evm: true }] : []),
      ...(e?.others ?? []).flatMap((c) => (c.comet ? [{ chain_id: c.chainId, ws: c.comet.ws ?? null, evm: false }] : [])),
    ],
    eth: e?.ethRpc !== undefined,
    svm: (e?.others ?? []).some((c) => c.svm !== undefined),
    devnet: e?.devnet ?? false,
    // The validator switch calls the node's own Ethereum JSON-RPC (its CORS applies), never a proxy.
    devnet_rpc: e?.devnet && e.ethRpc ? e.ethRpc : null,
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
