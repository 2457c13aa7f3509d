import { describe, expect, it } from 'vitest';
import { BlockIDFlag, type ExecTxResult } from '../../abci/types.js';
import { fromBase64, fromHex } from '../../crypto/encoding.js';
import { sha256 } from '../../crypto/hash.js';
import { EMPTY_BLOCK_ID, type Block, type Header } from '../../types/block.js';
import { defaultConsensusParams } from '../../types/params.js';
import { ZERO_TIME } from '../../types/time.js';
import { txProof, txsHash, verifyTxProof } from '../../types/txs.js';
import { encodeBlock, encodeBlockMeta, encodeConsensusParams, encodeHeader, encodePubKey, encodeValidator } from './comet-json.js';
import {
  emptyExecTxResult,
  encodeEvent,
  encodeExecTxResult,
  encodeResponseFinalizeBlock,
  encodeResponseInfo,
  encodeResponseQuery,
  encodeValidatorUpdate,
} from './comet-json-abci.js';
import { encodeEventData, encodeTxProof, encodeTxResult } from './comet-json-events.js';

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

function header(over: Partial<Header> = {}): Header {
  return {
    version: { block: 11, app: 0 },
    chainId: 'chainlet_9000-1',
    height: 1,
    time: { seconds: 1_700_000_000, nanos: 123_456_000 },
    lastBlockId: EMPTY_BLOCK_ID,
    lastCommitHash: sha256(new Uint8Array(0)),
    dataHash: sha256(new Uint8Array(0)),
    validatorsHash: bytes(32, 0xab),
    nextValidatorsHash: bytes(32, 0xab),
    consensusHash: bytes(32, 0x01),
    appHash: bytes(32, 0x02),
    lastResultsHash: new Uint8Array(0),
    evidenceHash: sha256(new Uint8Array(0)),
    proposerAddress: bytes(20, 0x0f),
    ...over,
  };
}

const result: ExecTxResult = {
  code: 0,
  data: new Uint8Array(0),
  log: '',
  info: '',
  gasWanted: 21000,
  gasUsed: 21000,
  events: [{ type: 'message', attributes: [{ key: 'action', value: '/x.Msg', index: true }] }],
  codespace: '',
};

describe('block types', () => {
  it('encodes a height-1 header: strings for int64, upper hex, app version omitted, empty last block id', () => {
    const j = encodeHeader(header());
    expect(j.version).toEqual({ block: '11' });
    expect(j.height).toBe('1');
    expect(j.time).toBe('2023-11-14T22:13:20.123456Z');
    expect(j.last_block_id).toEqual({ hash: '', parts: { total: 0, hash: '' } });
    expect(j.data_hash).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
    expect(j.last_results_hash).toBe('');
    expect(j.proposer_address).toBe('0F'.repeat(20));
    expect(Object.keys(j)).toEqual([
      'version',
      'chain_id',
      'height',
      'time',
      'last_block_id',
      'last_commit_hash',
      'data_hash',
      'validators_hash',
      'next_validators_hash',
      'consensus_hash',
      'app_hash',
      'last_results_hash',
      'evidence_hash',
      'proposer_address',
    ]);
  });

  it('keeps version.app when non-zero', () => {
    expect(encodeHeader(header({ version: { block: 11, app: 1 } })).version).toEqual({ block: '11', app: '1' });
  });

  it('encodes a block with txs as base64, an empty evidence list and absent commit signatures', () => {
    const block: Block = {
      header: header({ height: 2 }),
      data: { txs: [new Uint8Array([1, 2, 3])] },
      evidence: { evidence: [] },
      lastCommit: {
        height: 1,
        round: 0,
        blockId: { hash: bytes(32, 1), partSetHeader: { total: 1, hash: bytes(32, 2) } },
        signatures: [
          { blockIdFlag: BlockIDFlag.Commit, validatorAddress: bytes(20, 3), timestamp: { seconds: 1_700_000_000, nanos: 0 }, signature: bytes(64, 4) },
          { blockIdFlag: BlockIDFlag.Absent, validatorAddress: new Uint8Array(0), timestamp: ZERO_TIME, signature: null },
        ],
      },
    };
    const j = encodeBlock(block);
    expect(j.data.txs).toEqual(['AQID']);
    expect(j.evidence).toEqual({ evidence: [] });
    expect(j.last_commit.height).toBe('1');
    expect(j.last_commit.round).toBe(0);
    expect(j.last_commit.block_id.parts.total).toBe(1);
    expect(j.last_commit.signatures[0]).toEqual({
      block_id_flag: 2,
      validator_address: '03'.repeat(20),
      timestamp: '2023-11-14T22:13:20Z',
      signature: Buffer.from(bytes(64, 4)).toString('base64'),
    });
    expect(j.last_commit.signatures[1]).toEqual({ block_id_flag: 1, validator_address: '', timestamp: '0001-01-01T00:00:00Z', signature: null });
  });

  it('encodes a block meta with string sizes', () => {
    const m = encodeBlockMeta({ blockId: EMPTY_BLOCK_ID, blockSize: 1234, header: header(), numTxs: 0 });
    expect(m.block_size).toBe('1234');
    expect(m.num_txs).toBe('0');
  });

  it('encodes validators with amino pub keys and string powers', () => {
    const v = encodeValidator({ address: bytes(20, 0xaa), pubKey: bytes(32, 0xbb), votingPower: 10, proposerPriority: -5 });
    expect(v).toEqual({
      address: 'AA'.repeat(20),
      pub_key: encodePubKey(bytes(32, 0xbb)),
      voting_power: '10',
      proposer_priority: '-5',
    });
    expect(v.pub_key.type).toBe('tendermint/PubKeyEd25519');
  });

  it('encodes consensus params with int64 strings and the duration in nanoseconds', () => {
    expect(encodeConsensusParams(defaultConsensusParams())).toEqual({
      block: { max_bytes: '22020096', max_gas: '-1' },
      evidence: { max_age_num_blocks: '100000', max_age_duration: '172800000000000', max_bytes: '1048576' },
      validator: { pub_key_types: ['ed25519'] },
      version: { app: '0' },
      abci: { vote_extensions_enable_height: '0' },
    });
  });
});

describe('ABCI results', () => {
  it('writes every ExecTxResult field (jsonpb EmitDefaults), nil data as null', () => {
    const j = encodeExecTxResult(result);
    expect(j).toEqual({
      code: 0,
      data: null,
      log: '',
      info: '',
      gas_wanted: '21000',
      gas_used: '21000',
      events: [{ type: 'message', attributes: [{ key: 'action', value: '/x.Msg', index: true }] }],
      codespace: '',
    });
    expect(Object.keys(j)).toEqual(['code', 'data', 'log', 'info', 'gas_wanted', 'gas_used', 'events', 'codespace']);
    expect(encodeExecTxResult({ ...result, data: new Uint8Array([0xff]) }).data).toBe('/w==');
    expect(emptyExecTxResult().gas_used).toBe('0');
  });

  it('writes ResponseQuery with camelCase proofOps and nulls for nil bytes', () => {
    const j = encodeResponseQuery({
      code: 0,
      log: '',
      info: '',
      index: 0,
      key: null,
      value: new TextEncoder().encode('{}'),
      proofOps: null,
      height: 5,
      codespace: '',
    });
    expect(j).toEqual({ code: 0, log: '', info: '', index: '0', key: null, value: 'e30=', proofOps: null, height: '5', codespace: '' });
    const p = encodeResponseQuery({
      code: 0,
      log: '',
      info: '',
      index: 0,
      key: bytes(1, 1),
      value: null,
      proofOps: [{ type: 'ics23', key: bytes(1, 2), data: bytes(1, 3) }],
      height: 1,
      codespace: '',
    });
    expect(p.proofOps).toEqual({ ops: [{ type: 'ics23', key: 'Ag==', data: 'Aw==' }] });
  });

  it('leaves zero ResponseInfo fields out (cmtjson omitempty)', () => {
    expect(encodeResponseInfo({ data: 'chainlet', version: '0.1.0', appVersion: 1, lastBlockHeight: 0, lastBlockAppHash: new Uint8Array(0) })).toEqual({
      data: 'chainlet',
      version: '0.1.0',
      app_version: '1',
    });
    expect(encodeResponseInfo({ data: '', version: '', appVersion: 0, lastBlockHeight: 7, lastBlockAppHash: bytes(2, 0xff) })).toEqual({
      last_block_height: '7',
      last_block_app_hash: '//8=',
    });
  });

  it('leaves empty attributes out of a block event and writes proto validator updates', () => {
    expect(encodeEvent({ type: 'fee_market', attributes: [] })).toEqual({ type: 'fee_market' });
    expect(encodeValidatorUpdate({ pubKey: bytes(32, 1), power: 10 })).toEqual({
      pub_key: { Sum: { type: 'tendermint.crypto.PublicKey_Ed25519', value: { ed25519: Buffer.from(bytes(32, 1)).toString('base64') } } },
      power: '10',
    });
  });

  it('encodes result_finalize_block with omitempty fields in Go order', () => {
    const empty = encodeResponseFinalizeBlock({ events: [], txResults: [], validatorUpdates: [], appHash: new Uint8Array(0) });
    expect(empty).toEqual({ validator_updates: [] });
    const full = encodeResponseFinalizeBlock({
      events: [{ type: 'block_bloom', attributes: [{ key: 'bloom', value: '00', index: true }] }],
      txResults: [result],
      validatorUpdates: [],
      consensusParamUpdates: defaultConsensusParams(),
      appHash: bytes(1, 0xff),
    });
    expect(Object.keys(full)).toEqual(['events', 'tx_results', 'validator_updates', 'consensus_param_updates', 'app_hash']);
    expect(full.app_hash).toBe('/w==');
  });
});

describe('events and proofs', () => {
  it('omits index 0 of a TxResult and keeps the key TxResult in Tx events', () => {
    expect(encodeTxResult({ height: 5, index: 0, tx: bytes(2, 1), result })).not.toHaveProperty('index');
    const d = encodeEventData({ type: 'Tx', value: { txResult: { height: 5, index: 2, tx: bytes(2, 1), result } } });
    expect(d.type).toBe('tendermint/event/Tx');
    expect(d.value).toMatchObject({ TxResult: { height: '5', index: 2, tx: 'AQE=' } });
  });

  it('wraps round-state events as tendermint/event/RoundState', () => {
    expect(encodeEventData({ type: 'Polka', value: { height: 3, round: 1, step: 'RoundStepPrevote' } })).toEqual({
      type: 'tendermint/event/RoundState',
      value: { height: '3', round: 1, step: 'RoundStepPrevote' },
    });
  });

  it('encodes NewBlockEvents with string height and num_txs', () => {
    expect(encodeEventData({ type: 'NewBlockEvents', value: { height: 9, events: [], numTxs: 2 } }).value).toEqual({ height: '9', events: [], num_txs: '2' });
  });

  it('encodes ValidatorSetUpdates with amino pub keys and string powers', () => {
    const v = { address: bytes(20, 0xaa), pubKey: bytes(32, 7), votingPower: 10, proposerPriority: -5 };
    expect(encodeEventData({ type: 'ValidatorSetUpdates', value: { validatorUpdates: [v] } })).toEqual({
      type: 'tendermint/event/ValidatorSetUpdates',
      value: {
        validator_updates: [
          {
            address: 'AA'.repeat(20),
            pub_key: { type: 'tendermint/PubKeyEd25519', value: Buffer.from(bytes(32, 7)).toString('base64') },
            voting_power: '10',
            proposer_priority: '-5',
          },
        ],
      },
    });
  });

  it('encodes NewEvidence with a string height and the evidence as given (amino)', () => {
    const evidence = { type: 'tendermint/DuplicateVoteEvidence', value: { total_voting_power: '10' } };
    expect(encodeEventData({ type: 'NewEvidence', value: { height: 12, evidence } })).toEqual({
      type: 'tendermint/event/NewEvidence',
      value: { evidence, height: '12' },
    });
  });

  it('encodes a tx proof that still verifies after decoding the JSON', () => {
    const txs = [bytes(10, 1), bytes(20, 2), bytes(30, 3)];
    const j = encodeTxProof(txProof(txs, 1));
    expect(j.proof.total).toBe('3');
    expect(j.proof.index).toBe('1');
    expect(j.root_hash).toMatch(/^[0-9A-F]{64}$/);
    const decoded = {
      rootHash: fromHex(j.root_hash),
      data: fromBase64(j.data),
      proof: { total: Number(j.proof.total), index: Number(j.proof.index), leafHash: fromBase64(j.proof.leaf_hash), aunts: j.proof.aunts.map(fromBase64) },
    };
    expect(verifyTxProof(decoded, txsHash(txs))).toBe(true);
    expect(encodeTxProof(txProof([bytes(1, 9)], 0)).proof.aunts).toEqual([]);
  });
});
