/**
 * The routing API's adapter for the hub chain: a `cosmos` record, balances of its native denom by
 * bech32 address (and IBC vouchers), submit of a Cosmos TxRaw through its mempool, and tx lookups in its tx index.
 */
import { fromBech32 } from '../../crypto/bech32.js';
import { toHexUpper } from '../../crypto/encoding.js';
import { sha256 } from '../../crypto/hash.js';
import { formatRfc3339Nano } from '../../types/time.js';
import { LOGO_PATH, type ChainRecord } from '../../rpc/routing/chains.js';
import { outcomeOf, type HostedChain, type RoutingChain } from '../../rpc/routing/env.js';
import { DenomBalanceError, InvalidArgumentError } from '../../rpc/routing/errors.js';
import type { HubChain } from './start.js';
import { voucherOf } from '../../ibc/bank.js';
import { nativeAsset, storeVouchers } from '../../rpc/routing/assets.js';

export function hubRoutingChain(hub: HubChain): RoutingChain {
  const c = hub.app.config!;
  const { mempool, blockStore, txIndexer } = hub.parts;
  const hosted: HostedChain = Object.freeze({
    cosmosChainId: hub.chainId,
    evmChainId: '',
    chainName: 'chainlethub',
    prettyName: 'Chainlet Hub',
    bech32Prefix: c.bech32Prefix,
    denom: c.denom,
    displayDenom: c.displayDenom,
    decimals: c.decimals,
    isTestnet: true,
  });
  const adapter: RoutingChain = {
    chain: hosted,
    face: (id) => (id === hub.chainId ? 'cosmos' : undefined),
    records(baseUrl): ChainRecord[] {
      const g = adapter.gasPrices();
      return [
        {
          chain_name: hosted.chainName,
          chain_id: hub.chainId,
          pretty_name: hosted.prettyName,
          chain_type: 'cosmos',
          is_testnet: true,
          pfm_enabled: false,
          supports_memo: true,
          logo_uri: `${baseUrl}${LOGO_PATH}`,
          bech32_prefix: c.bech32Prefix,
          ecosystem_module_support: { authz: false, feegrant: false },
          // ICS-20 transfers only: no packet forwarding, IBC hooks or memo-driven actions.
          ibc_capabilities: { ecosystem_pfm: false, ecosystem_ibc_hooks: false, ecosystem_memo: false, ecosystem_autopilot: false },
          fee_assets: [{ denom: c.denom, gas_price: { low: g.low.toString(), average: g.average.toString(), high: g.high.toString() } }],
        },
      ];
    },
    gasPrices: () => {
      const p = BigInt(c.minGasPrice);
      return { low: p, average: p, high: p };
    },
    parseHolder(address, chainId) {
      let d: { prefix: string; bytes: Uint8Array } | undefined;
      try {
        d = fromBech32(address);
      } catch {
        d = undefined;
      }
      if (!d || d.prefix !== c.bech32Prefix || d.bytes.length !== 20)
        throw new InvalidArgumentError(`invalid address "${address}" for chain ${chainId}: expected bech32 with prefix "${c.bech32Prefix}"`);
      return d.bytes;
    },
    async balance(holder, denom) {
      if (denom !== c.denom && denom !== `${hosted.chainName}-native`)
        throw new DenomBalanceError(denom, `unknown denom "${denom}" on chain ${hub.chainId}: use "${c.denom}"`);
      return { amount: hub.app.balance(holder), decimals: c.decimals, priceKeys: [c.denom, c.displayDenom, denom] };
    },
    nativeBalance: async (holder) => hub.app.balance(holder),
    voucherBalance: async (holder, denom) => voucherOf(hub.app.ibcStore(), holder, denom),
    assets: async () => [nativeAsset(hosted, hub.chainId), ...storeVouchers(hub.app.ibcStore(), hub.chainId)],
    async erc20Balance(_contract, _holder, denom) {
      throw new DenomBalanceError(denom, `chain ${hub.chainId} has no ERC20 tokens`);
    },
    checkTx: (tx) => mempool.checkTx(tx),
    async findTx(hash) {
      const t = txIndexer ? await txIndexer.get(hash) : undefined;
      if (!t) return undefined;
      return { tx: t.tx, cometHash: sha256(t.tx), ethHash: sha256(t.tx), height: t.height, index: t.index, outcome: outcomeOf(t.result), result: t.result };
    },
    pooledTx(hash) {
      const t = mempool.get(hash);
      return t && { tx: t.tx, cometHash: t.hash, sender: t.sender, nonce: t.nonce };
    },
    async block(height) {
      const meta = await blockStore.loadBlockMeta(height);
      return meta && { height, hash: meta.blockId.hash, time: formatRfc3339Nano(meta.header.time), numTxs: meta.numTxs, proposer: meta.header.proposerAddress };
    },
    displayHash: (hash) => toHexUpper(hash),
    height: () => hub.height,
  };
  return adapter;
}
