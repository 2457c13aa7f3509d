/**
 * The two BLOCKHASH sources of the chain's VMs and EVMs (factory.ts): the last 256 committed hashes
 * on the block path, and the stored blocks off it (calls, traces). Both answer CometBFT block hashes,
 * so a replayed or simulated tx reads what the block read.
 */
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import type { EvmView } from '../views/evm-view.js';

const ZERO_HASH = new Uint8Array(32);

/**
 * BLOCKHASH for runs off the block path (calls, traces): the CometBFT hash of a stored block, read
 * through the view; zero when unknown. (The EVM itself answers zero outside the last 256 blocks.)
 */
export class ViewBlockHashes implements EVMMockBlockchainInterface {
  constructor(private readonly view: Pick<EvmView, 'getBlock'>) {}

  async getBlock(height: number): Promise<{ hash(): Uint8Array }> {
    const hash = (await this.view.getBlock(height))?.hash ?? ZERO_HASH;
    return { hash: () => hash };
  }

  async putBlock(): Promise<void> {}

  shallowCopy(): EVMMockBlockchainInterface {
    return this;
  }
}

/**
 * The "blockchain" the block VM asks for BLOCKHASH: the CometBFT hashes of the last 256 blocks (the
 * only ones the opcode may read).
 */
export class RecentBlockHashes implements EVMMockBlockchainInterface {
  private readonly hashes = new Map<number, Uint8Array>();

  add(height: number, hash: Uint8Array): void {
    this.hashes.set(height, hash);
    this.hashes.delete(height - 257);
  }

  async getBlock(height: number): Promise<{ hash(): Uint8Array }> {
    const hash = this.hashes.get(height) ?? ZERO_HASH;
    return { hash: () => hash };
  }

  async putBlock(): Promise<void> {}

  shallowCopy(): EVMMockBlockchainInterface {
    return this;
  }
}
