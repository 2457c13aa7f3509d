/**
 * Errors of the EVM application. Tx rejections carry the ABCI triple (code, codespace, log) that
 * CheckTx / FinalizeBlock return; their texts follow Cosmos EVM / geth so that viem's and cosmjs's
 * classifiers recognise them.
 */

import type { Codespace } from '../sdk/errors.js';

/** Base class of every error thrown by src/app (the query and height errors are src/sdk's). */
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

/** Persisted data that cannot be decoded: the db was written by something else or is corrupt. */
export class CorruptStoreError extends EvmAppError {
  override name = 'CorruptStoreError';
  constructor(readonly what: string) {
    super(`corrupt app store: ${what}`);
  }
}
