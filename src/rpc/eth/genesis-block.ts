/**
 * Block 0 for the Ethereum view. CometBFT has no block at height 0, but Ethereum tooling asks for
 * one (viem reads `latest` before the first tx of a fresh automine devnet, explorers fetch block
 * 0). The genesis block is synthesized: hash = the zero hash, which is exactly block 1's
 * `parentHash` (CometBFT's empty last_block_id), so the chain of hashes stays unbroken; its state
 * root is the genesis state, its time the genesis time, its base fee the initial base fee.
 */
import type { BlockReplay, IbcCallContext } from '../../app/views/evm-view.js';
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import type { EvmBlock, EvmReceipt, EvmTxLocation, EvmView } from '../../app/views/evm-view.js';

const ZERO32 = new Uint8Array(32);
const EMPTY_TRIE_ROOT = new Uint8Array(Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex'));

export interface GenesisInfo {
  /** Genesis time, seconds. */
  timestamp: bigint;
  /** Consensus max gas (or 2^32−1 for unlimited). */
  gasLimit: bigint;
}

function isZeroHash(h: Uint8Array): boolean {
  return h.length === 32 && h.every((b) => b === 0);
}

export class GenesisAwareView implements EvmView {
  private genesis: Promise<EvmBlock> | undefined;

  constructor(
    private readonly inner: EvmView,
    private readonly info: GenesisInfo,
  ) {}

  get chainId(): bigint {
    return this.inner.chainId;
  }
  get common(): Common {
    return this.inner.common;
  }
  get denom(): string {
    return this.inner.denom;
  }
  get bech32Prefix(): string {
    return this.inner.bech32Prefix;
  }
  latestHeight(): number {
    return this.inner.latestHeight();
  }
  getBlock(height: number): Promise<EvmBlock | undefined> {
    return height === 0 ? this.genesisBlock() : this.inner.getBlock(height);
  }
  getBlockByHash(hash: Uint8Array): Promise<EvmBlock | undefined> {
    return isZeroHash(hash) ? this.genesisBlock() : this.inner.getBlockByHash(hash);
  }
  getTransaction(ethHash: Uint8Array): Promise<EvmTxLocation | undefined> {
    return this.inner.getTransaction(ethHash);
  }
  async getTransactionsOfBlock(height: number): Promise<{ tx: TypedTransaction; sender: Address }[]> {
    return height === 0 ? [] : this.inner.getTransactionsOfBlock(height);
  }
  async getReceipts(height: number): Promise<EvmReceipt[]> {
    return height === 0 ? [] : this.inner.getReceipts(height);
  }
  /** The genesis block has no logs: nothing to add to the inner view's. */
  blooms(from: number, to: number): AsyncIterable<[number, Uint8Array]> {
    return this.inner.blooms(from, to);
  }
  stateAt(height: number): Promise<MerkleStateManager> {
    return this.inner.stateAt(height);
  }
  nextBaseFee(): bigint {
    return this.inner.nextBaseFee();
  }
  nextGasLimit(): bigint {
    return this.inner.nextGasLimit();
  }
  get coinbaseOverride(): Address | undefined {
    return this.inner.coinbaseOverride;
  }
  minGasPrice(): bigint {
    return this.inner.minGasPrice();
  }
  onBlock(listener: (b: EvmBlock, receipts: EvmReceipt[]) => void): () => void {
    return this.inner.onBlock(listener);
  }
  ibcCallContext(): IbcCallContext | undefined {
    return this.inner.ibcCallContext?.();
  }
  blockReplay(height: number): Promise<BlockReplay> {
    if (this.inner.blockReplay === undefined) return Promise.reject(new Error('this view cannot replay blocks'));
    return this.inner.blockReplay(height);
  }

  private genesisBlock(): Promise<EvmBlock> {
    if (this.genesis === undefined) {
      const p = this.buildGenesis();
      p.catch(() => {
        if (this.genesis === p) this.genesis = undefined;
      });
      this.genesis = p;
    }
    return this.genesis;
  }

  private async buildGenesis(): Promise<EvmBlock> {
    const stateRoot = await (await this.inner.stateAt(0)).getStateRoot();
    // Block 1 runs at the initial base fee; before it exists, that is the next base fee.
    const baseFeePerGas = (await this.inner.getBlock(1))?.baseFeePerGas ?? this.inner.nextBaseFee();
    return Object.freeze({
      number: 0,
      hash: ZERO32,
      parentHash: ZERO32,
      timestamp: this.info.timestamp,
      coinbase: new Address(new Uint8Array(20)),
      gasLimit: this.info.gasLimit,
      gasUsed: 0n,
      baseFeePerGas,
      stateRoot,
      logsBloom: new Uint8Array(256),
      transactionsRoot: EMPTY_TRIE_ROOT,
      receiptsRoot: EMPTY_TRIE_ROOT,
      txHashes: [],
      size: 540,
    });
  }
}
