import { describe, expect, it } from 'vitest';
import { ed25519FromSeed, ed25519Sign, ed25519Verify } from '../crypto/ed25519.js';
import { fromBase64, fromHex, toHex, utf8 } from '../crypto/encoding.js';
import { encodeCanonicalProposal } from './proto.js';
import { EMPTY_BLOCK_ID, SignedMsgType, type BlockID, type Vote } from './block.js';
import { parseRfc3339, ZERO_TIME, type Timestamp } from './time.js';
import { proposalSignBytes, voteSignBytes } from './vote.js';

function vote(v: Partial<Vote>): Vote {
  return {
    type: SignedMsgType.Unknown,
    height: 0,
    round: 0,
    blockId: EMPTY_BLOCK_ID,
    timestamp: ZERO_TIME, // Go's zero time.Time, as in a zero-valued CometBFT Vote
    validatorAddress: new Uint8Array(0),
    validatorIndex: 0,
    signature: new Uint8Array(0),
    ...v,
  };
}

const ZERO_TS = [0x2a, 0xb, 0x8, 0x80, 0x92, 0xb8, 0xc3, 0x98, 0xfe, 0xff, 0xff, 0xff, 0x1];
const ONE_ONE = [0x11, 0x1, 0, 0, 0, 0, 0, 0, 0, 0x19, 0x1, 0, 0, 0, 0, 0, 0, 0];
const CHAIN = [0x32, 0xd, ...utf8('test_chain_id')];

describe('voteSignBytes', () => {
  // CometBFT types/vote_test.go TestVoteSignBytesTestVectors, cases 0-4.
  it.each<[string, string, Vote, number[]]>([
    ['0: zero vote', '', vote({}), [0xd, ...ZERO_TS]],
    ['1: precommit', '', vote({ height: 1, round: 1, type: SignedMsgType.Precommit }), [0x21, 0x8, 0x2, ...ONE_ONE, ...ZERO_TS]],
    ['2: prevote', '', vote({ height: 1, round: 1, type: SignedMsgType.Prevote }), [0x21, 0x8, 0x1, ...ONE_ONE, ...ZERO_TS]],
    ['3: no type', '', vote({ height: 1, round: 1 }), [0x1f, ...ONE_ONE, ...ZERO_TS]],
    ['4: chain id', 'test_chain_id', vote({ height: 1, round: 1 }), [0x2e, ...ONE_ONE, ...ZERO_TS, ...CHAIN]],
  ])('matches CometBFT vector %s', (_name, chainId, v, want) => {
    expect(toHex(voteSignBytes(chainId, v))).toBe(toHex(new Uint8Array(want)));
  });

  it('ignores the validator, index and signature fields', () => {
    const a = vote({ height: 9, round: 2, type: SignedMsgType.Prevote });
    const b = { ...a, validatorAddress: new Uint8Array(20).fill(3), validatorIndex: 4, signature: new Uint8Array(64).fill(5) };
    expect(voteSignBytes('c', b)).toEqual(voteSignBytes('c', a));
  });

  it('verifies real precommit signatures (Celestia devnet-2, height 300)', () => {
    const blockId: BlockID = {
      hash: fromHex('D63D40F570E90E5757AD72DA6EB839B9B47E78AB760FFBDF0275CBC6B9A74D30'),
      partSetHeader: { total: 1, hash: fromHex('676A9F3EA11F828E58F44C600762FD09C4DE95611FD1EF8522A3198D29B8B1C9') },
    };
    const sigs: [pubKey: string, time: string, sig: string][] = [
      [
        'sMcFgSIzlD77eZYgV7H4akyxoHCPc2oIQW05qWEB6b4=',
        '2021-11-23T13:13:36.603550499Z',
        '/14ReW+Ig0xf8Ew4SE2WtaCWnaWcB+RHsIosjo+uJUfANhceVVpQtCfO2wQtjtPk/JIBcoq/XcomkqsbOlYwBA==',
      ],
      [
        'WdqZ8hoyc1HxZCJfQrAGKm2fFJZFg7PngPNGkA1RWXc=',
        '2021-11-23T13:13:36.60149343Z',
        'XesoBDBgX1eJDIuVmcQIHIKqDTKZdSCMNcWjdk3xeiTgVNB5TYGlO6n7UUAZE5Gf4OZoOzqPPo847VERdWcgBQ==',
      ],
      [
        'pvwSRksq3ekXIiYK7IzjQJ870BxLqEma8zRr9n9VnXI=',
        '2021-11-23T13:13:36.602220136Z',
        'rqpLcPFCFOOBRDB1Uxc9v+6i/GEoFMBIlJlYgFGWtWFSTu4Btr4ByyjRMo9tO9LIIlLW8guyHNS0+2i6ZcuRCg==',
      ],
    ];
    for (const [pk, time, sig] of sigs) {
      const v = vote({ type: SignedMsgType.Precommit, height: 300, round: 0, blockId, timestamp: parseRfc3339(time) });
      expect(ed25519Verify(fromBase64(pk), voteSignBytes('devnet-2', v), fromBase64(sig))).toBe(true);
      expect(ed25519Verify(fromBase64(pk), voteSignBytes('devnet-3', v), fromBase64(sig))).toBe(false);
    }
  });

  it('differs for a nil vote and a block vote', () => {
    const blockId: BlockID = { hash: new Uint8Array(32).fill(1), partSetHeader: { total: 1, hash: new Uint8Array(32).fill(2) } };
    const nil = voteSignBytes('c', vote({ height: 1, type: SignedMsgType.Prevote }));
    const forBlock = voteSignBytes('c', vote({ height: 1, type: SignedMsgType.Prevote, blockId }));
    expect(forBlock.length - nil.length).toBe(2 + 2 + 32 + 2 + 2 + 2 + 32);
  });
});

describe('proposalSignBytes', () => {
  const blockId: BlockID = { hash: new Uint8Array(32).fill(0xaa), partSetHeader: { total: 2, hash: new Uint8Array(32).fill(0xbb) } };
  const timestamp: Timestamp = { seconds: 1_700_000_000, nanos: 5 };

  it('is the length-prefixed CanonicalProposal with type 32', () => {
    const p = { height: 12, round: 1, polRound: -1, blockId, timestamp };
    const body = encodeCanonicalProposal('chainlet', p);
    const bytes = proposalSignBytes('chainlet', p);
    expect(bytes[0]).toBe(body.length);
    expect(bytes.subarray(1)).toEqual(body);
    expect(toHex(body.subarray(0, 2))).toBe('0820');
  });

  it('differs from the vote sign bytes for the same height and round', () => {
    const p = proposalSignBytes('', { height: 1, round: 1, polRound: 0, blockId: EMPTY_BLOCK_ID, timestamp: ZERO_TIME });
    const v = voteSignBytes('', vote({ height: 1, round: 1 }));
    expect(p).not.toEqual(v);
  });

  it('round-trips through ed25519 signing', () => {
    const key = ed25519FromSeed(new Uint8Array(32).fill(9));
    const sb = proposalSignBytes('chainlet', { height: 5, round: 0, polRound: -1, blockId, timestamp });
    expect(ed25519Verify(key.publicKey, sb, ed25519Sign(key, sb))).toBe(true);
  });
});
