/** Signed Ethereum txs for tests, from the dev accounts (viem signs; the raw bytes are the CometBFT tx). */
import { hexToBytes, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deriveDevAccounts } from '../../src/genesis/dev-accounts.js';

export const DEV = deriveDevAccounts(10);

export interface TransferOpts {
  from?: number;
  to?: Hex;
  nonce: number;
  value?: bigint;
  chainId?: number;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  gas?: bigint;
}

export async function signTransfer(o: TransferOpts): Promise<Uint8Array> {
  const account = privateKeyToAccount(DEV[o.from ?? 0]!.privateKey as Hex);
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId: o.chainId ?? 9000,
    nonce: o.nonce,
    to: o.to ?? (DEV[9]!.address as Hex),
    value: o.value ?? 1n,
    gas: o.gas ?? 21_000n,
    maxFeePerGas: o.maxFeePerGas ?? 10_000_000_000n,
    maxPriorityFeePerGas: o.maxPriorityFeePerGas ?? 1n,
  });
  return hexToBytes(raw);
}
