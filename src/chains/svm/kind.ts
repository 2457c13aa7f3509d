/**
 * The SVM kind: a LiteSVM ledger behind a Solana JSON-RPC (src/svm, src/rpc/solana). LiteSVM and
 * its RPC load only when a network starts one (start.ts).
 */
import { resolveConfig } from '../../config/resolve.js';
import { parseListenAddress } from '../../config/listen-address.js';
import { definedUrls, formatUnits, nonNegativeInt, stringOption } from '../format.js';
import type { BannerAccount, ChainKind } from '../types.js';
import { DEFAULT_SLOT_MS, DEFAULT_SVM_RPC, DEFAULT_SVM_WS } from './defaults.js';
import type { SvmChain, SvmChainSpec } from './start.js';

export const svmKind: ChainKind<SvmChainSpec, SvmChain> = {
  name: 'svm',
  byDefault: true,
  label: 'svm, LiteSVM',
  help: `svm's Solana RPC on ${DEFAULT_SVM_RPC}`,
  cli: {
    options: [
      {
        flags: '--svm-rpc <addr>',
        description: 'Solana JSON-RPC address of the SVM chain (with --chains …,svm), as solana-test-validator',
        default: DEFAULT_SVM_RPC,
      },
      { flags: '--svm-ws <addr>', description: 'Solana WebSocket (subscriptions) address of the SVM chain', default: DEFAULT_SVM_WS },
      { flags: '--svm-slot-ms <ms>', description: 'milliseconds per slot of the SVM chain (0: only when mined)', default: String(DEFAULT_SLOT_MS) },
    ],
    spec(ctx) {
      const rpc = stringOption(ctx.options, 'svmRpc', DEFAULT_SVM_RPC);
      const ws = stringOption(ctx.options, 'svmWs', DEFAULT_SVM_WS);
      parseListenAddress(rpc, '--svm-rpc');
      parseListenAddress(ws, '--svm-ws');
      ctx.listen.push({ flag: '--svm-rpc', address: rpc }, { flag: '--svm-ws', address: ws });
      const slotMs = nonNegativeInt(stringOption(ctx.options, 'svmSlotMs', String(DEFAULT_SLOT_MS)), '--svm-slot-ms');
      // The [svm] section as the chain spec takes it (limits, origins, history sizes).
      const svm = resolveConfig(ctx.home, ctx.overrides).svm;
      return { kind: 'svm', rpc, ws, slotMs, mnemonic: ctx.devnet?.mnemonic, home: ctx.home, ...svm };
    },
  },
  configLines: (ctx) => [
    `svm: Solana RPC ${stringOption(ctx.options, 'svmRpc', DEFAULT_SVM_RPC)} (--svm-rpc), WebSocket ${stringOption(ctx.options, 'svmWs', DEFAULT_SVM_WS)} (--svm-ws), a slot every ${stringOption(ctx.options, 'svmSlotMs', String(DEFAULT_SLOT_MS))} ms (--svm-slot-ms); limits in [svm] of app.toml`,
  ],
  async start(spec, ctx) {
    const { startSvmChain } = await import('./start.js');
    return startSvmChain({ ...spec, ...(ctx.metrics ? { metrics: ctx.metrics } : {}) });
  },
  async summary(c) {
    const accounts = c.ledger.devAccounts.slice(0, 3).map((a, i): BannerAccount => {
      const lamports = c.ledger.balance(a.address);
      return { address: a.address, balance: lamports.toString(), display: `${formatUnits(lamports, 9)} SOL`, path: `m/44'/501'/${i}'/0'` };
    });
    return { chainId: c.chainId, kind: 'svm', height: c.height, urls: definedUrls(c.urls), accounts, mint: c.ledger.mint };
  },
  bannerLines: (s) => [`${s.chainId} (svm, LiteSVM): slot ${s.height}`, `  USDC-like mint (6 decimals): ${String(s['mint'])}`],
};
