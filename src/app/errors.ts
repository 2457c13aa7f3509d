/**
 * Errors of the EVM application. Tx rejections carry the ABCI triple (code, codespace, log) that
 * CheckTx / FinalizeBlock return; their texts follow Cosmos EVM / geth so that viem's and cosmjs's
 * classifiers recognise them.
 */

/** Base class of every error thrown by src/app. */
export class EvmAppError extends Error {
  override name = 'EvmAppError';
}

/** The genesis `app_state.evm` section is malformed. */
export class GenesisStateError extends EvmAppError {
  override name = 'GenesisStateError';
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`invalid genesis app_state.evm.${field}: ${reason}`);
  }
}

/** Codespaces used in ABCI results. */
export type Codespace = 'sdk' | 'evm' | 'bank';

/** A tx refused by CheckTx or failed before execution in FinalizeBlock; never changes state. */
export class TxRejectedError extends EvmAppError {
  override name = 'TxRejectedError';
  constructor(
    readonly code: number,
    readonly codespace: Codespace,
    readonly log: string,
  ) {
    super(log);
  }
}

/** An ABCI query that cannot be answered; `code`/`codespace` go into ResponseQuery. */
export class QueryError extends EvmAppError {
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
export class HeightNotAvailableError extends EvmAppError {
  override name = 'HeightNotAvailableError';
  constructor(
    readonly height: number,
    readonly latest: number,
  ) {
    super(`state at height ${height} is not available (latest ${latest})`);
  }
}

/** Persisted data that cannot be decoded: the db was written by something else or is corrupt. */
export class CorruptStoreError extends EvmAppError {
  override name = 'CorruptStoreError';
  constructor(readonly what: string) {
    super(`corrupt app store: ${what}`);
  }
}
