/**
 * What `chainlet start` prints: the dev accounts with their keys and balances read from the chain
 * (as Anvil does), their bech32 form, the chain ids, fees and limits in force, and the endpoints.
 */
import { createAddressFromString } from '@ethereumjs/util';
import { parseEvmGenesis } from '../app/genesis-state.js';
import { toBech32 } from '../crypto/bech32.js';
import { fromHex, toHexUpper } from '../crypto/encoding.js';
import { DEV_MNEMONIC } from '../genesis/dev-accounts.js';
import type { ChainletNode } from '../node/node.js';
import type { Network } from '../network/network.js';
import { VERSION } from '../version.js';

/** `amount` base units with `decimals` decimals, without trailing zeros. */
export function formatUnits(amount: bigint, decimals: number): string {
  const base = 10n ** BigInt(decimals);
  const whole = amount / base;
  const frac = (amount % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return frac === '' ? whole.toString() : `${whole}.${frac}`;
}

export async function bannerText(node: ChainletNode, opts: BannerOptions = {}): Promise<string> {
  const evm = parseEvmGenesis(node.genesis.appState);
  const view = node.internals.app.evm;
  const height = view.latestHeight();
  const state = await view.stateAt(height);
  const out: string[] = [];
  out.push(`chainlet ${VERSION}`, '');
  if (node.accounts.length > 0) {
    out.push('Available Accounts', '==================');
    for (const a of node.accounts) {
      const balance = (await state.getAccount(createAddressFromString(a.address)))?.balance ?? 0n;
      out.push(`(${a.index}) ${a.address} (${formatUnits(balance, evm.decimals)} ${evm.displayDenom.toUpperCase()})  ${toBech32(evm.bech32Prefix, fromHex(a.address))}`);
    }
    out.push('', 'Private Keys', '==================');
    for (const a of node.accounts) out.push(`(${a.index}) ${a.privateKey}`);
    out.push('', 'Wallet', '==================', `Mnemonic:          ${opts.mnemonic ?? DEV_MNEMONIC}`, `Derivation path:   m/44'/60'/0'/0/`, '');
  }
  const cfg = node.config;
  const rl = cfg.routing;
  out.push(
    `Chain ID (Cosmos): ${node.chainId}`,
    `Chain ID (EVM):    ${node.evmChainId}`,
    `Native denom:      ${evm.denom} (${evm.decimals} decimals; display ${evm.displayDenom}), bech32 prefix ${evm.bech32Prefix}`,
    `Base fee:          ${view.nextBaseFee()} wei (next block)`,
    `Block gas limit:   ${node.genesis.consensusParams.block.maxGas < 0 ? 'unlimited' : node.genesis.consensusParams.block.maxGas}`,
    `Validators:        ${node.internals.validators.map((v) => `${toHexUpper(v.address).slice(0, 12)}${v.online ? '' : ' (offline)'}`).join(', ')}`,
    `Block production:  ${cfg.consensus.mode}${cfg.consensus.mode === 'interval' ? ` every ${cfg.consensus.timeoutCommitMs} ms` : ''}`,
    `Namespaces:        ${cfg.jsonRpc.api.join(', ')}${cfg.jsonRpc.enableProfiling ? ' (profiling on)' : ''}`,
    `Devnet control:    ${cfg.evm.devnet ? 'on (evm_*, anvil_*, hardhat_*)' : 'off ([evm] devnet = true in app.toml, or --evm.devnet, turns it on)'}`,
    `Routing API limit: ${rl.rateLimitBurst} requests burst, ${rl.rateLimitPerSecond}/s refill, shared by callers without an API key`,
    '',
  );
  const u = node.urls;
  if (u.rpc) out.push(`CometBFT RPC:      ${u.rpc}  (WebSocket ${u.rpcWs})`);
  if (u.jsonRpc) out.push(`Ethereum JSON-RPC: ${u.jsonRpc}  (WebSocket ${u.jsonRpcWs})`);
  const routing = opts.network?.urls.routing ?? u.routing;
  if (routing) out.push(`Routing API:       ${routing}`);
  if (routing) out.push(`Explorer:          ${routing}/explorer/`);
  if (u.metrics) out.push(`Prometheus:        ${u.metrics}`);
  const others = (opts.network?.chains ?? []).filter((c) => c.kind !== 'evm');
  if (others.length > 0) {
    out.push('', 'Other chains of the network', '===========================');
    for (const c of others) {
      if (c.kind === 'svm') {
        out.push(`${c.chainId} (svm, LiteSVM): Solana JSON-RPC ${c.urls.rpc ?? 'off'}${c.urls.rpcWs ? `  (WebSocket ${c.urls.rpcWs})` : ''}, slot ${c.height}`);
        out.push(`  USDC-like mint (6 decimals): ${c.ledger.mint}`);
        c.ledger.devAccounts.slice(0, 3).forEach((a, i) => out.push(`  (${i}) ${a.address}  (m/44'/501'/${i}'/0')`));
      } else {
        out.push(`${c.chainId} (${c.kind}): CometBFT RPC ${c.urls.rpc ?? 'off'}${c.urls.rpcWs ? `  (WebSocket ${c.urls.rpcWs})` : ''}, height ${c.height}`);
        if (c.kind === 'hub') c.devAddresses.slice(0, 3).forEach((a, i) => out.push(`  (${i}) ${a}  (m/44'/118'/0'/0/${i}, 1000000 HUB)`));
      }
    }
  }
  const path = opts.network?.relayer?.status().paths[0];
  if (path) {
    out.push('', 'IBC', '===', `${path.chainA} ${path.channelA} <-> ${path.chainB} ${path.channelB} (port transfer, ${path.connectionA}/${path.connectionB}), relayed after every block`);
    out.push('  pause / resume: chainlet_pauseRelayer, chainlet_resumeRelayer on the Ethereum JSON-RPC; status: chainlet_relayerStatus');
  }
  out.push('', `Listening at height ${node.height}. Ctrl-C to stop.`);
  return out.join('\n');
}

export interface BannerOptions {
  mnemonic?: string;
  /** The network the node is part of: its other chains are listed with their ports. */
  network?: Network;
}

export async function printBanner(node: ChainletNode, opts: BannerOptions = {}): Promise<void> {
  console.log(await bannerText(node, opts));
}
