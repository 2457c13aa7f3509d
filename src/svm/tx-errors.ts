/**
 * LiteSVM's transaction errors as the Solana JSON-RPC writes them (`"BlockhashNotFound"`,
 * `{"InstructionError":[0,{"Custom":1}]}`…), from the enums its binding declares.
 */
const TX_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const;

const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
] as const;

/** The JSON form of a Solana TransactionError. */
export type TxErrorJson = string | Record<string, unknown>;

export function txErrorName(index: number): string {
  return TX_ERRORS[index] ?? `TransactionError(${index})`;
}

/** Converts what `FailedTransactionMetadata.err()` returns. */
export function txErrorJson(err: unknown): TxErrorJson {
  if (typeof err === 'number') return txErrorName(err);
  const o = err as { index?: number; err?: () => unknown; accountIndex?: number; constructor?: { name?: string } };
  const kind = o.constructor?.name ?? '';
  if (typeof o.err === 'function' && typeof o.index === 'number') return { InstructionError: [o.index, instructionErrorJson(o.err())] };
  if (kind.includes('DuplicateInstruction')) return { DuplicateInstruction: o.index };
  if (kind.includes('InsufficientFundsForRent')) return { InsufficientFundsForRent: { account_index: o.accountIndex } };
  if (kind.includes('ProgramExecutionTemporarilyRestricted')) return { ProgramExecutionTemporarilyRestricted: { account_index: o.accountIndex } };
  return String(err);
}

function instructionErrorJson(e: unknown): TxErrorJson {
  if (typeof e === 'number') return INSTRUCTION_ERRORS[e] ?? `InstructionError(${e})`;
  const o = e as { code?: number; msg?: string };
  if (typeof o.code === 'number') return { Custom: o.code };
  return { BorshIoError: o.msg ?? '' };
}

/** A tx refused before it is recorded, with its error as the JSON-RPC writes it. */
export class SvmTxError extends Error {
  override name = 'SvmTxError';
  constructor(
    readonly err: TxErrorJson,
    message: string,
  ) {
    super(message);
  }
}
