/**
 * Cosmos SDK error codes (codespace "sdk", types/errors/errors.go) and bank's (codespace "bank"),
 * as the Cosmos-side apps and the IBC module answer them in CheckTx, tx results and queries.
 */
export const SdkCode = {
  TxDecode: 2,
  InvalidSequence: 3,
  Unauthorized: 4,
  InsufficientFunds: 5,
  UnknownRequest: 6,
  InvalidAddress: 7,
  InvalidPubKey: 8,
  UnknownAddress: 9,
  InvalidCoins: 10,
  OutOfGas: 11,
  MemoTooLarge: 12,
  InsufficientFee: 13,
  InvalidRequest: 18,
  KeyNotFound: 22,
  InvalidChainId: 28,
  TxTimeoutHeight: 30,
  WrongSequence: 32,
  UnknownExtensionOptions: 35,
  InvalidGasLimit: 41,
  // bank's own codespace
  NoInputs: 2,
  NoOutputs: 3,
  InputOutputMismatch: 4,
  MultipleSenders: 12,
} as const;

/** A Cosmos tx refused (CheckTx) or failed (FinalizeBlock) with an SDK code and log. */
export class CosmosTxError extends Error {
  override name = 'CosmosTxError';
  constructor(
    readonly code: number,
    readonly log: string,
    readonly codespace = 'sdk',
  ) {
    super(log);
  }
}

/** Codespaces used in ABCI results. */
export type Codespace = 'sdk' | 'evm' | 'bank';

/** An ABCI query that cannot be answered; `code`/`codespace` go into ResponseQuery. */
export class QueryError extends Error {
  override name = 'QueryError';
  constructor(
    readonly code: number,
    readonly codespace: Codespace,
    readonly log: string,
  ) {
    super(log);
  }
}

/** State at a height that this app never had (or no longer has). */
export class HeightNotAvailableError extends Error {
  override name = 'HeightNotAvailableError';
  constructor(
    readonly height: number,
    readonly latest: number,
  ) {
    super(`state at height ${height} is not available (latest ${latest})`);
  }
}
