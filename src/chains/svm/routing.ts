/**
 * The routing API's adapter for the SVM chain: an `svm` record under the Skip-style chain id,
 * balances of SOL (`sol`, 9 decimals) and of SPL mints (the mint address as the denom, summed over
 * the holder's token accounts), submit of a base64 signed transaction answered with its base58
 * signature, and tx lookups by signature for `/v2/tx/track` and `/v2/tx/status`.
 */
import { getBase58Codec } from '@solana/kit';
import { parseMint, parseTokenAccount, SvmTxError } from '../../svm/ledger.js';
import { LOGO_PATH, type ChainRecord } from '../../rpc/routing/chains.js';
import type { HostedChain, RoutingChain } from '../../rpc/routing/env.js';
import { DenomBalanceError, InvalidArgumentError, TxRejectedError } from '../../rpc/routing/errors.js';
import type { SvmChain } from './start.js';
import { nativeAsset, tokenAsset } from '../../rpc/routing/assets.js';

const b58 = getBase58Codec();
/** `solana-native` is the denom Skip lists SOL under (and /v2/fungible/assets here). */
const NATIVE = new Set(['sol', 'SOL', 'lamport', 'lamports', 'solana-native']);

export function svmRoutingChain(chain: SvmChain): RoutingChain {
  const ledger = chain.ledger;
  const hosted: HostedChain = Object.freeze({
    cosmosChainId: chain.chainId,
    evmChainId: '',
    chainName: 'solana',
    prettyName: 'Solana',
    bech32Prefix: '',
    denom: 'sol',
    displayDenom: 'SOL',
    decimals: 9,
    isTestnet: true,
  });
  const text = (b: Uint8Array) => b58.decode(b);
  const adapter: RoutingChain = {
    chain: hosted,
    face: (id) => (id === chain.chainId ? 'svm' : undefined),
    records(baseUrl): ChainRecord[] {
      return [
        {
          chain_name: hosted.chainName,
          chain_id: chain.chainId,
          pretty_name: hosted.prettyName,
          chain_type: 'svm',
          is_testnet: true,
          pfm_enabled: false,
          supports_memo: true,
          logo_uri: `${baseUrl}${LOGO_PATH}`,
          bech32_prefix: '',
          ecosystem_module_support: { authz: false, feegrant: false },
          ibc_capabilities: { ecosystem_pfm: false, ecosystem_ibc_hooks: false, ecosystem_memo: false, ecosystem_autopilot: false },
          // Solana fees are per signature, not per gas: no gas price tiers.
          fee_assets: [{ denom: 'sol', gas_price: null }],
        },
      ];
    },
    gasPrices: () => ({ low: 0n, average: 0n, high: 0n }),
    async assets() {
      const sol = nativeAsset(hosted, chain.chainId, { denom: 'solana-native', isSvm: true });
      const m = ledger.account(ledger.mint);
      const decimals = m ? (parseMint(m.data)?.decimals ?? null) : null;
      // The genesis mint is USDC-like (6 decimals, ledger.ts); it has no on-chain metadata account.
      const usdc = tokenAsset(chain.chainId, ledger.mint, {
        symbol: 'USDC',
        name: 'USDC (devnet mint)',
        decimals,
        isSvm: true,
        description: 'The SPL mint of the SVM devnet',
      });
      return [sol, usdc];
    },
    async unsignedTransfer(from, to, denom, amount) {
      const { unsignedSvmTransfer } = await import('./transfer-tx.js');
      if (NATIVE.has(denom)) return unsignedSvmTransfer({ from, to, amount, blockhash: ledger.latestBlockhash() });
      const mintAccount = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(denom) ? ledger.account(denom) : undefined;
      const mint = mintAccount && mintAccount.owner === ledger.tokenProgram ? parseMint(mintAccount.data) : undefined;
      if (!mint) return undefined;
      return unsignedSvmTransfer({ from, to, amount, blockhash: ledger.latestBlockhash(), mint: { address: denom, decimals: mint.decimals } });
    },
    sameDenom: (a, b) => NATIVE.has(a) && NATIVE.has(b),
    parseHolder(address, chainId) {
      let bytes: Uint8Array | undefined;
      try {
        bytes = Uint8Array.from(b58.encode(address));
      } catch {
        bytes = undefined;
      }
      if (!bytes || bytes.length !== 32) throw new InvalidArgumentError(`invalid address "${address}" for chain ${chainId}: expected a base58 Solana address`);
      return bytes;
    },
    async balance(holder, denom) {
      const owner = text(holder);
      if (NATIVE.has(denom)) return { amount: ledger.balance(owner), decimals: 9, priceKeys: ['sol', 'SOL', denom] };
      const mintAccount = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(denom) ? ledger.account(denom) : undefined;
      const mint = mintAccount && mintAccount.owner === ledger.tokenProgram ? parseMint(mintAccount.data) : undefined;
      if (!mint) throw new DenomBalanceError(denom, `unknown denom "${denom}" on chain ${chain.chainId}: use "sol" or an SPL mint address`);
      let amount = 0n;
      for (const k of ledger.tokenAccountsOf(owner)) {
        const t = parseTokenAccount(ledger.account(k)!.data);
        if (t?.mint === denom) amount += t.amount;
      }
      return { amount, decimals: mint.decimals, priceKeys: [denom] };
    },
    async nativeBalance(holder) {
      return ledger.balance(text(holder));
    },
    async erc20Balance(_contract, _holder, denom) {
      throw new DenomBalanceError(denom, `chain ${chain.chainId} has no ERC20 tokens`);
    },
    async checkTx(tx) {
      const sent = await adapter.submitTx!(tx);
      return { code: 0, data: sent.hash, log: '', info: '', gasWanted: 0, gasUsed: 0, events: [], codespace: '' };
    },
    async submitTx(tx) {
      try {
        const rec = ledger.send(tx);
        return { hash: Uint8Array.from(b58.encode(rec.signature)), display: rec.signature };
      } catch (e) {
        if (e instanceof SvmTxError) throw new TxRejectedError({ log: e.message, chainCode: 1, codespace: typeof e.err === 'string' ? e.err : 'svm' });
        throw e;
      }
    },
    async findTx(hash) {
      if (hash.length !== 64) return undefined;
      const rec = ledger.transaction(text(hash));
      if (!rec) return undefined;
      return {
        tx: rec.wire,
        cometHash: hash,
        ethHash: hash,
        height: Number(rec.slot),
        index: 0,
        outcome: rec.err === null ? { ok: true, code: 0, log: '' } : { ok: false, code: 1, log: JSON.stringify(rec.err) },
      };
    },
    pooledTx: () => undefined,
    async block(height) {
      // Slots older than the blockhash window are not kept.
      const s = ledger.slotInfo(BigInt(height));
      return (
        s && { height, hash: Uint8Array.from(b58.encode(s.blockhash)), time: new Date(s.timeMs).toISOString(), numTxs: s.txs, proposer: new Uint8Array(0) }
      );
    },
    displayHash: (hash) => text(hash),
  };
  return adapter;
}
