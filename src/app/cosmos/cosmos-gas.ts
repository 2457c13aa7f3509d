/** The SDK's gas: its default costs and the meter a Cosmos tx runs under. */
import { CosmosTxError, SdkCode } from '../../sdk/errors.js';

/** The SDK's default gas costs (x/auth params and the KV store gas config). */
export const GAS = {
  txSizePerByte: 10n,
  sigVerifySecp256k1: 1000n,
  /** Cosmos EVM charges an eth_secp256k1 signature as an Ethereum tx's base cost. */
  sigVerifyEthSecp256k1: 21000n,
  readFlat: 1000n,
  readPerByte: 3n,
  writeFlat: 2000n,
  writePerByte: 30n,
  hasFlat: 1000n,
} as const;
/** Bytes of the stored records the gas of a read or write is charged on (a BaseAccount, a balance). */
export const ACCOUNT_BYTES = 80n;
export const BALANCE_BYTES = 48n;

export class GasMeter {
  used = 0n;
  constructor(readonly limit: bigint | undefined) {}
  consume(amount: bigint, what: string): void {
    this.used += amount;
    if (this.limit !== undefined && this.used > this.limit)
      throw new CosmosTxError(SdkCode.OutOfGas, `out of gas in location: ${what}; gasWanted: ${this.limit}, gasUsed: ${this.used}: out of gas`);
  }
}
