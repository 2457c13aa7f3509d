/**
 * What `chainlet start` prints once every server of every chain listens: each chain as its kind
 * shows it (src/chains/<kind>: the dev accounts with their keys and balances read from the chain,
 * as Anvil does; ids, fees and limits in force), the IBC channels, a halted chain and why, and last
 * the endpoints a user copies first, ending on the first chain's Ethereum JSON-RPC address (as
 * Anvil ends on "Listening on 127.0.0.1:8545"). On a terminal as text; otherwise one JSON object
 * (`"event": "ready"`), so that every line of stdout parses.
 */
import type { BannerWallet, Chain, ChainSummary, RpcEndpoint } from '../chains/types.js';
import type { Network } from '../network/network.js';
import { VERSION } from '../version.js';

export interface BannerOptions {
  mnemonic?: string;
}

type IbcPath = { chainA: string; channelA: string; chainB: string; channelB: string; connectionA: string; connectionB: string };

/** Everything the banner says, as data: the text and the JSON object are two renderings of it. */
export interface Banner {
  event: 'ready';
  version: string;
  wallet?: BannerWallet;
  chains: ChainSummary[];
  /** The first IBC channel (or why none opened); `ibcPaths` lists every channel when there are several. */
  ibc?: IbcPath | { off: string };
  ibcPaths?: IbcPath[];
  /** The endpoints a user copies first, most wanted last (the text's last lines). */
  endpoints: { name: string; url: string; ws?: string }[];
}

const FAMILY: Record<RpcEndpoint['family'], string> = { comet: 'CometBFT RPC', eth: 'Ethereum JSON-RPC', solana: 'Solana JSON-RPC' };

export async function bannerOf(network: Network, opts: BannerOptions = {}): Promise<Banner> {
  const kindOf = (kind: string) => network.registry.get(kind);
  const chains: ChainSummary[] = [];
  let wallet: BannerWallet | undefined;
  for (const [i, c] of network.chains.entries()) {
    const { wallet: w, ...s } = await kindOf(c.kind).summary(c, { mnemonic: opts.mnemonic });
    if (i === 0) wallet = w;
    chains.push(s);
  }
  const [main, ...others]: readonly Chain[] = network.chains;
  const endpoints: Banner['endpoints'] = [];
  const metrics = network.urls.metrics ?? main?.urls.metrics;
  if (metrics) endpoints.push({ name: 'Prometheus', url: metrics });
  for (const c of others) {
    const k = kindOf(c.kind);
    for (const e of c.capabilities.rpc()) endpoints.push({ name: `${c.chainId} (${k.label ?? k.name}): ${FAMILY[e.family]}`, url: e.url, ws: e.ws });
  }
  const own = main?.capabilities.rpc() ?? [];
  for (const e of own.filter((e) => e.family === 'comet')) endpoints.push({ name: FAMILY[e.family], url: e.url, ws: e.ws });
  const routing = network.urls.routing ?? main?.urls.routing;
  if (routing) endpoints.push({ name: 'Routing API', url: routing }, { name: 'Explorer', url: `${routing}/explorer/` });
  for (const e of own.filter((e) => e.family !== 'comet')) endpoints.push({ name: FAMILY[e.family], url: e.url, ws: e.ws });
  const paths: IbcPath[] = network.relayers
    .flatMap((r) => r.status().paths)
    .map((p) => ({ chainA: p.chainA, channelA: p.channelA, chainB: p.chainB, channelB: p.channelB, connectionA: p.connectionA, connectionB: p.connectionB }));
  const ibc: Banner['ibc'] = paths[0] ?? (network.ibcOff[0] !== undefined ? { off: network.ibcOff[0] } : undefined);
  return {
    event: 'ready',
    version: VERSION,
    ...(wallet ? { wallet } : {}),
    chains,
    ...(ibc ? { ibc } : {}),
    ...(paths.length > 1 ? { ibcPaths: paths } : {}),
    endpoints,
  };
}

/** The banner as a terminal shows it (each chain's lines by its kind, from `network`'s registry). */
export function bannerText(b: Banner, network: Pick<Network, 'registry'>): string {
  const [main, ...others] = b.chains as [ChainSummary, ...ChainSummary[]];
  const kindOf = (kind: string) => network.registry.get(kind);
  const out: string[] = [`chainlet ${b.version}`, '', ...kindOf(main.kind).bannerLines(main, true, b.wallet)];
  if (others.length > 0) {
    out.push('', 'Other chains of the network', '===========================');
    for (const c of others) {
      out.push(...kindOf(c.kind).bannerLines(c, false));
      c.accounts.forEach((a, i) => out.push(`  (${i}) ${a.address}  (${a.path}, ${a.display})`));
    }
  }
  if (b.ibc) {
    out.push('', 'IBC', '===');
    if ('off' in b.ibc) out.push(`${b.ibc.off[0]!.toUpperCase()}${b.ibc.off.slice(1)}`);
    else {
      for (const p of b.ibcPaths ?? [b.ibc])
        out.push(`${p.chainA} ${p.channelA} <-> ${p.chainB} ${p.channelB} (port transfer, ${p.connectionA}/${p.connectionB}), relayed after every block`);
      out.push('  pause / resume: chainlet_pauseRelayer, chainlet_resumeRelayer on the Ethereum JSON-RPC; status: chainlet_relayerStatus');
    }
  }
  for (const c of b.chains.filter((c) => c.halted !== undefined)) {
    out.push('', `HALTED: ${c.chainId} produces no blocks: ${c.halted}.`);
    out.push(`  Its servers answer at height ${c.height}. ${kindOf(c.kind).haltedHint?.(c) ?? 'Start with fewer --offline-validators.'}`);
  }
  out.push('', 'Endpoints', '=========');
  const width = Math.max(...b.endpoints.filter((e) => !e.name.includes('): ')).map((e) => e.name.length + 1), 18);
  for (const e of b.endpoints) {
    // The other chains' lines keep their "<chain> (<kind>): <family> <url>" form.
    const label = e.name.includes('): ') ? `${e.name} ` : `${e.name}:`.padEnd(width + 1);
    out.push(`${label}${e.url}${e.ws ? `  (WebSocket ${e.ws})` : ''}`);
  }
  const last = b.endpoints[b.endpoints.length - 1];
  const at = last ? last.url.replace(/^[a-z]+:\/\//, '') : undefined;
  out.push('', `${at ? `Listening on ${at}` : 'Running'} at height ${main.height}${main.halted !== undefined ? ' (halted)' : ''}. Ctrl-C to stop.`);
  return out.join('\n');
}

/** The banner as one JSON line. */
export function bannerJson(b: Banner): string {
  return JSON.stringify({ time: new Date().toISOString(), ...b });
}

export async function printBanner(network: Network, opts: BannerOptions & { json?: boolean } = {}): Promise<void> {
  const b = await bannerOf(network, opts);
  process.stdout.write(`${opts.json ? bannerJson(b) : bannerText(b, network)}\n`);
}
