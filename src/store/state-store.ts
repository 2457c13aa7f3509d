/**
 * The state store: the latest ChainState, and per height the validator set, consensus params and
 * FinalizeBlock response that RPC (`validators`, `consensus_params`, `block_results`) and the
 * handshake need. Values are in the stores' value encoding (value-codec.ts); keys sort by height.
 */
import { asLevelDb, encodeRecord, encodeValue, getValue, writeBatch, type LevelDb } from './level.js';
import type { AbstractLevel } from 'abstract-level';
import type { ResponseFinalizeBlock } from '../abci/types.js';
import type { ChainState } from './chain-state.js';
import type { Validator } from '../types/block.js';
import type { ConsensusParams } from '../types/params.js';
import { ValidatorSet } from '../types/validator-set.js';
import type { IndexedHeightStore } from './indexer-service.js';

type Db = AbstractLevel<string | Uint8Array | Buffer, string, Uint8Array>;

const h = (n: number) => n.toString().padStart(16, '0');

/** A validator set as stored: priorities alone cannot always name the proposer, so it is kept too. */
interface StoredSet {
  validators: Validator[];
  proposer: Uint8Array;
}

interface StoredState extends Omit<ChainState, 'validators' | 'nextValidators' | 'lastValidators'> {
  validators: StoredSet;
  nextValidators: StoredSet;
  lastValidators: StoredSet | undefined;
}

const toStored = (v: ValidatorSet): StoredSet => ({ validators: v.validators, proposer: v.proposer.address });
const fromStored = (s: StoredSet): ValidatorSet => ValidatorSet.fromValidators(s.validators, s.proposer);

export class StateStore implements IndexedHeightStore {
  private constructor(private readonly db: LevelDb) {}

  static async open(db: Db): Promise<StateStore> {
    await db.open();
    return new StateStore(asLevelDb(db as unknown as LevelDb<Uint8Array>));
  }

  async loadState(): Promise<ChainState | undefined> {
    const s = await getValue<StoredState>(this.db, 'state');
    if (!s) return undefined;
    return {
      ...s,
      validators: fromStored(s.validators),
      nextValidators: fromStored(s.nextValidators),
      lastValidators: s.lastValidators ? fromStored(s.lastValidators) : undefined,
    };
  }

  /**
   * Saves the state together with the validators/params of the next heights, in one batch.
   */
  async save(s: ChainState): Promise<void> {
    const stored: StoredState = {
      ...s,
      validators: toStored(s.validators),
      nextValidators: toStored(s.nextValidators),
      lastValidators: s.lastValidators ? toStored(s.lastValidators) : undefined,
    };
    const next = s.lastBlockHeight + 1;
    // The state and vals:next+1 are written again at the next height; the rest are kept as written.
    await writeBatch(this.db, [
      { key: 'state', value: encodeValue(stored) },
      { key: `vals:${h(next)}`, value: encodeRecord(toStored(s.validators)) },
      { key: `vals:${h(next + 1)}`, value: encodeValue(toStored(s.nextValidators)) },
      { key: `params:${h(next)}`, value: encodeRecord(s.consensusParams) },
    ]);
  }

  async saveFinalizeBlockResponse(height: number, res: ResponseFinalizeBlock): Promise<void> {
    await writeBatch(this.db, [{ key: `abci:${h(height)}`, value: encodeRecord(res) }]);
  }

  async loadIndexedHeight(): Promise<number> {
    return (await getValue<number>(this.db, 'indexed-height')) ?? 0;
  }

  async saveIndexedHeight(height: number): Promise<void> {
    await writeBatch(this.db, [{ key: 'indexed-height', value: encodeValue(height) }]);
  }

  async loadValidators(height: number): Promise<ValidatorSet | undefined> {
    const v = await getValue<StoredSet>(this.db, `vals:${h(height)}`);
    return v ? fromStored(v) : undefined;
  }

  async loadConsensusParams(height: number): Promise<ConsensusParams | undefined> {
    return getValue<ConsensusParams>(this.db, `params:${h(height)}`);
  }

  async loadFinalizeBlockResponse(height: number): Promise<ResponseFinalizeBlock | undefined> {
    return getValue<ResponseFinalizeBlock>(this.db, `abci:${h(height)}`);
  }
}
