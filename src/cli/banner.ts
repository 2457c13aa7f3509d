/**
 * What `chainlet start` prints once every server of every chain listens: the dev accounts of each
 * chain with their keys and balances read from that chain (as Anvil does), the chain ids, fees and
 * limits in force, a halted chain and why, and last the endpoints a user copies first, ending on the
 * Ethereum JSON-RPC address (as Anvil ends on "Listening on 127.0.0.1:8545"). On a terminal as
 * text; otherwise one JSON object (`"event": "ready"`), so that every line of stdout parses.
 */
import { createAddressFromString } from '@ethereumjs/util';
import { parseEvmGenesis } from '../app/genesis-state.js';
import { fromBech32, toBech32 } from '../crypto/bech32.js';
import { fromHex, toHexUpper } from '../crypto/encoding.js';
import { DEV_MNEMONIC } from '../genesis/dev-accounts.js';
import type { ChainletNode } from '../node/node.js';
import type { Network, NetworkChain } from '../network/network.js';
import { VERSION } from '../version.js';

/** `amount` base units with `decimals` decimals, without trailing zeros. */
export function formatUnits(amount: bigint, decimals: number): string {
  const base = 10n ** BigInt(decimals);
  const whole = amount / base;
  const frac = (amount % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return frac === '' ? whole.toString() : `${whole}.${frac}`;
}

export interface BannerOptions {
  mnemonic?: string;
  /** The network the node is part of: its other chains are listed with their accounts and ports. */
  network?: Network;
}

interface Account {
  address: string;
  /** Base units, read from the chain. */
  balance: string;
  /** The same amount in display units, e.g. `10000 CHAINLET`. */
  display: string;
  bech32?: string;
  privateKey?: string;
  path?: string;
}

interface ChainSummary {
  chainId: string;
  kind: NetworkChain['kind'];
  height: number;
  halted?: string;
  urls: Record<string, string>;
  accounts: Account[];
  [extra: string]: unknown;
}

/** Everything the banner says, as data: the text and the JSON object are two renderings of it. */
export interface Banner {
  event: 'ready';
  version: string;
  wallet?: { mnemonic: string; derivationPath: string };
  chains: ChainSummary[];
  ibc?: { chainA: string; channelA: string; chainB: string; channelB: string; connectionA: string; connectionB: string } | { off: string };
  /** The endpoints a user copies first, most wanted last (the text's last lines). */
  endpoints: { name: string; url: string; ws?: string }[];
}

const HUB_DISPLAY = { denom: 'uhub', displayDenom: 'hub', decimals: 6 };

export async function bannerOf(node: ChainletNode, opts: BannerOptions = {}): Promise<Banner> {
  const network = opts.network;
  const chains: ChainSummary[] = [await evmSummary(node)];
  for (const c of network?.chains ?? []) if (c.kind !== 'evm') chains.push(otherSummary(c));
  const u = node.urls;
  const routing = network?.urls.routing ?? u.routing;
  const endpoints: Banner['endpoints'] = [];
  const metrics = network?.urls.metrics ?? u.metrics;
  if (metrics) endpoints.push({ name: 'Prometheus', url: metrics });
  for (const c of chains.slice(1))
    if (c.urls['rpc'])
      endpoints.push({
        name: `${c.chainId} (${c.kind === 'svm' ? 'svm, LiteSVM): Solana JSON-RPC' : `${c.kind}): CometBFT RPC`}`,
        url: c.urls['rpc'],
        ws: c.urls['rpcWs'],
      });
  if (u.rpc) endpoints.push({ name: 'CometBFT RPC', url: u.rpc, ws: u.rpcWs });
  if (routing) endpoints.push({ name: 'Routing API', url: routing }, { name: 'Explorer', url: `${routing}/explorer/` });
  if (u.jsonRpc) endpoints.push({ name: 'Ethereum JSON-RPC', url: u.jsonRpc, ws: u.jsonRpcWs });
  const path = network?.relayer?.status().paths[0];
  const hub = chains.find((c) => c.kind === 'hub');
  const ibc: Banner['ibc'] = path
    ? {
        chainA: path.chainA,
        channelA: path.channelA,
        chainB: path.chainB,
        channelB: path.channelB,
        connectionA: path.connectionA,
        connectionB: path.connectionB,
      }
    : hub && node.halted !== undefined
      ? { off: `not opened: ${node.chainId} is halted (its handshake txs need blocks); restart once it can produce blocks` }
      : undefined;
  return {
    event: 'ready',
    version: VERSION,
    ...(node.accounts.length > 0 ? { wallet: { mnemonic: opts.mnemonic ?? DEV_MNEMONIC, derivationPath: "m/44'/60'/0'/0/" } } : {}),
    chains,
    ...(ibc ? { ibc } : {}),
    endpoints,
  };
}

async function evmSummary(node: ChainletNode): Promise<ChainSummary> {
  const evm = parseEvmGenesis(node.genesis.appState);
  const view = node.internals.app.evm;
  const state = await view.stateAt(view.latestHeight());
  const accounts: Account[] = [];
  for (const a of node.accounts) {
    const balance = (await state.getAccount(createAddressFromString(a.address)))?.balance ?? 0n;
    accounts.push({
      address: a.address,
      balance: balance.toString(),
      display: `${formatUnits(balance, evm.decimals)} ${evm.displayDenom.toUpperCase()}`,
      bech32: toBech32(evm.bech32Prefix, fromHex(a.address)),
      privateKey: a.privateKey,
    });
  }
  const cfg = node.config;
  const halted = node.halted;
  return {
    chainId: node.chainId,
    kind: 'evm',
    evmChainId: node.evmChainId,
    height: node.height,
    ...(halted !== undefined ? { halted } : {}),
    urls: Object.fromEntries(Object.entries(node.urls).filter((e): e is [string, string] => typeof e[1] === 'string')),
    accounts,
    nativeDenom: { denom: evm.denom, decimals: evm.decimals, displayDenom: evm.displayDenom, bech32Prefix: evm.bech32Prefix },
    baseFee: view.nextBaseFee().toString(),
    blockGasLimit: node.genesis.consensusParams.block.maxGas < 0 ? 'unlimited' : node.genesis.consensusParams.block.maxGas,
    validators: node.internals.validators.map((v) => ({ address: toHexUpper(v.address), online: v.online })),
    blockProduction: { mode: cfg.consensus.mode, ...(cfg.consensus.mode === 'interval' ? { blockTimeMs: cfg.consensus.timeoutCommitMs } : {}) },
    namespaces: cfg.jsonRpc.api,
    profiling: cfg.jsonRpc.enableProfiling,
    devnetControl: cfg.evm.devnet,
    routingRateLimit: { burst: cfg.routing.rateLimitBurst, perSecond: cfg.routing.rateLimitPerSecond },
  };
}

function otherSummary(c: Exclude<NetworkChain, { kind: 'evm' }>): ChainSummary {
  const urls = Object.fromEntries(Object.entries(c.urls).filter((e): e is [string, string] => typeof e[1] === 'string'));
  if (c.kind === 'svm') {
    const accounts = c.ledger.devAccounts.slice(0, 3).map((a, i): Account => {
      const lamports = c.ledger.balance(a.address);
      return { address: a.address, balance: lamports.toString(), display: `${formatUnits(lamports, 9)} SOL`, path: `m/44'/501'/${i}'/0'` };
    });
    return { chainId: c.chainId, kind: 'svm', height: c.height, urls, accounts, mint: c.ledger.mint };
  }
  if (c.kind === 'hub') {
    const g = { ...HUB_DISPLAY, ...(c.genesis.appState as { hub?: Partial<typeof HUB_DISPLAY> }).hub };
    const accounts = c.devAddresses.slice(0, 3).map((address, i): Account => {
      const balance = c.app.balance(fromBech32(address).bytes);
      return {
        address,
        balance: balance.toString(),
        display: `${formatUnits(balance, g.decimals)} ${g.displayDenom.toUpperCase()}`,
        path: `m/44'/118'/0'/0/${i}`,
      };
    });
    return { chainId: c.chainId, kind: 'hub', height: c.height, urls, accounts, denom: g.denom };
  }
  return { chainId: c.chainId, kind: c.kind, height: c.height, urls, accounts: [] };
}

/** The banner as a terminal shows it. */
export function bannerText(b: Banner): string {
  const [evm, ...others] = b.chains as [ChainSummary, ...ChainSummary[]];
  const x = evm as ChainSummary & Record<string, never>;
  const out: string[] = [`chainlet ${b.version}`, ''];
  if (evm.accounts.length > 0) {
    out.push('Available Accounts', '==================');
    evm.accounts.forEach((a, i) => out.push(`(${i}) ${a.address} (${a.display})  ${a.bech32}`));
    out.push('', 'Private Keys', '==================');
    evm.accounts.forEach((a, i) => out.push(`(${i}) ${a.privateKey}`));
    if (b.wallet) out.push('', 'Wallet', '==================', `Mnemonic:          ${b.wallet.mnemonic}`, `Derivation path:   ${b.wallet.derivationPath}`);
    out.push('');
  }
  const d = x['nativeDenom'] as { denom: string; decimals: number; displayDenom: string; bech32Prefix: string };
  const prod = x['blockProduction'] as { mode: string; blockTimeMs?: number };
  const rl = x['routingRateLimit'] as { burst: number; perSecond: number };
  out.push(
    `Chain ID (Cosmos): ${evm.chainId}`,
    `Chain ID (EVM):    ${String(x['evmChainId'])}`,
    `Native denom:      ${d.denom} (${d.decimals} decimals; display ${d.displayDenom}), bech32 prefix ${d.bech32Prefix}`,
    `Base fee:          ${String(x['baseFee'])} wei (next block)`,
    `Block gas limit:   ${String(x['blockGasLimit'])}`,
    `Validators:        ${(x['validators'] as { address: string; online: boolean }[]).map((v) => `${v.address.slice(0, 12)}${v.online ? '' : ' (offline)'}`).join(', ')}`,
    `Block production:  ${prod.mode}${prod.blockTimeMs !== undefined ? ` every ${prod.blockTimeMs} ms` : ''}`,
    `Namespaces:        ${(x['namespaces'] as string[]).join(', ')}${x['profiling'] ? ' (profiling on)' : ''}`,
    `Devnet control:    ${x['devnetControl'] ? 'on (evm_*, anvil_*, hardhat_*)' : 'off ([evm] devnet = true in app.toml, or --evm.devnet, turns it on)'}`,
    `Routing API limit: ${rl.burst} requests burst, ${rl.perSecond}/s refill, shared by callers without an API key`,
  );
  if (others.length > 0) {
    out.push('', 'Other chains of the network', '===========================');
    for (const c of others) {
      if (c.kind === 'svm') {
        out.push(`${c.chainId} (svm, LiteSVM): slot ${c.height}`, `  USDC-like mint (6 decimals): ${String(c['mint'])}`);
      } else {
        out.push(`${c.chainId} (${c.kind}): height ${c.height}`);
      }
      c.accounts.forEach((a, i) => out.push(`  (${i}) ${a.address}  (${a.path}, ${a.display})`));
    }
  }
  if (b.ibc) {
    out.push('', 'IBC', '===');
    if ('off' in b.ibc) out.push(`${b.ibc.off[0]!.toUpperCase()}${b.ibc.off.slice(1)}`);
    else {
      const p = b.ibc;
      out.push(`${p.chainA} ${p.channelA} <-> ${p.chainB} ${p.channelB} (port transfer, ${p.connectionA}/${p.connectionB}), relayed after every block`);
      out.push('  pause / resume: chainlet_pauseRelayer, chainlet_resumeRelayer on the Ethereum JSON-RPC; status: chainlet_relayerStatus');
    }
  }
  for (const c of b.chains.filter((c) => c.halted !== undefined)) {
    const offline = c.kind === 'evm' ? (x['validators'] as { online: boolean }[]).flatMap((v, i) => (v.online ? [] : [i])) : [];
    out.push('', `HALTED: ${c.chainId} produces no blocks: ${c.halted}.`);
    out.push(
      `  Its servers answer at height ${c.height}. ${offline.length > 0 && x['devnetControl'] ? `Bring a validator back with chainlet_setValidatorOnline [${offline[0]}, true] on the Ethereum JSON-RPC, or start` : 'Start'} with fewer --offline-validators.`,
    );
  }
  out.push('', 'Endpoints', '=========');
  const width = Math.max(...b.endpoints.filter((e) => !e.name.includes('): ')).map((e) => e.name.length + 1), 18);
  for (const e of b.endpoints) {
    // The other chains' lines keep their "<chain> (<kind>): <family> <url>" form.
    const label = e.name.includes('): ') ? `${e.name} ` : `${e.name}:`.padEnd(width + 1);
    out.push(`${label}${e.url}${e.ws ? `  (WebSocket ${e.ws})` : ''}`);
  }
  const main = b.endpoints[b.endpoints.length - 1];
  const at = main ? main.url.replace(/^[a-z]+:\/\//, '') : undefined;
  out.push('', `${at ? `Listening on ${at}` : 'Running'} at height ${evm.height}${evm.halted !== undefined ? ' (halted)' : ''}. Ctrl-C to stop.`);
  return out.join('\n');
}

/** The banner as one JSON line. */
export function bannerJson(b: Banner): string {
  return JSON.stringify({ time: new Date().toISOString(), ...b });
}

export async function printBanner(node: ChainletNode, opts: BannerOptions & { json?: boolean } = {}): Promise<void> {
  const b = await bannerOf(node, opts);
  process.stdout.write(`${opts.json ? bannerJson(b) : bannerText(b)}\n`);
}
