/** The EVM chain as the banner shows it: its dev accounts and keys (as Anvil prints them), ids, fees and limits in force. */
import { createAddressFromString } from '@ethereumjs/util';
import { parseEvmGenesis } from '../../app/stores/genesis-state.js';
import { toBech32 } from '../../crypto/bech32.js';
import { fromHex, toHexUpper } from '../../crypto/encoding.js';
import { DEV_MNEMONIC } from '../../genesis/dev-accounts.js';
import type { ChainletNode } from '../../node/node.js';
import { definedUrls, formatUnits } from '../format.js';
import type { BannerAccount, BannerWallet, ChainSummary } from '../types.js';

export async function evmSummary(node: ChainletNode, mnemonic: string | undefined): Promise<ChainSummary> {
  const evm = parseEvmGenesis(node.genesis.appState);
  const view = node.internals.app.evm;
  const state = await view.stateAt(view.latestHeight());
  const accounts: BannerAccount[] = [];
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
    ...(node.accounts.length > 0 ? { wallet: { mnemonic: mnemonic ?? DEV_MNEMONIC, derivationPath: "m/44'/60'/0'/0/" } } : {}),
    chainId: node.chainId,
    kind: 'evm',
    evmChainId: node.evmChainId,
    height: node.height,
    ...(halted !== undefined ? { halted } : {}),
    urls: definedUrls(node.urls),
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

/** The banner's head for the EVM chain (`main`: accounts, keys, wallet, ids, fees, limits), or its line among the other chains. */
export function evmBannerLines(s: ChainSummary, main: boolean, wallet?: BannerWallet): string[] {
  const x = s as ChainSummary & Record<string, never>;
  if (!main) return [`${s.chainId} (evm, EVM chain id ${String(x['evmChainId'])}): height ${s.height}`];
  const out: string[] = [];
  if (s.accounts.length > 0) {
    out.push('Available Accounts', '==================');
    s.accounts.forEach((a, i) => out.push(`(${i}) ${a.address} (${a.display})  ${a.bech32}`));
    out.push('', 'Private Keys', '==================');
    s.accounts.forEach((a, i) => out.push(`(${i}) ${a.privateKey}`));
    if (wallet) out.push('', 'Wallet', '==================', `Mnemonic:          ${wallet.mnemonic}`, `Derivation path:   ${wallet.derivationPath}`);
    out.push('');
  }
  const d = x['nativeDenom'] as { denom: string; decimals: number; displayDenom: string; bech32Prefix: string };
  const prod = x['blockProduction'] as { mode: string; blockTimeMs?: number };
  const rl = x['routingRateLimit'] as { burst: number; perSecond: number };
  out.push(
    `Chain ID (Cosmos): ${s.chainId}`,
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
  return out;
}

/** How to get a halted EVM chain going again. */
export function evmHaltedHint(s: ChainSummary): string {
  const x = s as ChainSummary & Record<string, never>;
  const offline = (x['validators'] as { online: boolean }[]).flatMap((v, i) => (v.online ? [] : [i]));
  return `${offline.length > 0 && x['devnetControl'] ? `Bring a validator back with chainlet_setValidatorOnline [${offline[0]}, true] on the Ethereum JSON-RPC, or start` : 'Start'} with fewer --offline-validators.`;
}
