import { describe, expect, it } from 'vitest';
import { fromHex, toHexUpper, utf8 } from '../crypto/encoding.js';
import { sha256 } from '../crypto/hash.js';
import type { Header } from './block.js';
import { kvstoreBlock3 } from './fixtures/kvstore-block3.js';
import { headerHash } from './header.js';
import { parseRfc3339 } from './time.js';

const tm = (s: string): Uint8Array => sha256(utf8(s));

// CometBFT types/block_test.go TestHeaderHash ("Generates expected hash").
const cometHeader: Header = {
  version: { block: 1, app: 2 },
  chainId: 'chainId',
  height: 3,
  time: { seconds: Date.UTC(2019, 9, 13, 16, 14, 44) / 1000, nanos: 0 },
  lastBlockId: { hash: new Uint8Array(32), partSetHeader: { total: 6, hash: new Uint8Array(32) } },
  lastCommitHash: tm('last_commit_hash'),
  dataHash: tm('data_hash'),
  validatorsHash: tm('validators_hash'),
  nextValidatorsHash: tm('next_validators_hash'),
  consensusHash: tm('consensus_hash'),
  appHash: tm('app_hash'),
  lastResultsHash: tm('last_results_hash'),
  evidenceHash: tm('evidence_hash'),
  proposerAddress: tm('proposer_address').slice(0, 20),
};

describe('headerHash', () => {
  it('matches CometBFT TestHeaderHash', () => {
    expect(toHexUpper(headerHash(cometHeader))).toBe('F740121F553B5418C3EFBD343C2DBFE9E007BB67B0D020A0741374BAB65242A4');
  });

  it('is empty when validators_hash is empty', () => {
    expect(headerHash({ ...cometHeader, validatorsHash: new Uint8Array(0) })).toEqual(new Uint8Array(0));
  });

  it('matches a real chain: wasmd height 70 (block id hash from /commit)', () => {
    const h: Header = {
      version: { block: 11, app: 0 },
      chainId: 'wasmdlocal',
      height: 70,
      time: parseRfc3339('2021-05-22T17:06:24.945921498Z'),
      lastBlockId: {
        hash: fromHex('BFD79481181393C07624680CB2FFCF98FC0CA13A810EAEDAF99EEE117530E2C3'),
        partSetHeader: { total: 1, hash: fromHex('BF7E0BC1DCC70D6F88522F5E941E8CE0A9F8FFF2623CB346E0DBA8419F13D8CF') },
      },
      lastCommitHash: fromHex('0871E3E26E359B8C86E72D205A8A609EA9E369DDEAF348ADC94B1AE1F78E2309'),
      dataHash: fromHex('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855'),
      validatorsHash: fromHex('B27189A358F6D20965B1BC2CF47564EF2A9B5D6A2C0D6CB7BE1F922BE39110E9'),
      nextValidatorsHash: fromHex('B27189A358F6D20965B1BC2CF47564EF2A9B5D6A2C0D6CB7BE1F922BE39110E9'),
      consensusHash: fromHex('048091BC7DDC283F77BFBF91D73C44DA58C3DF8A9CBC867405D8B7F3DAADA22F'),
      appHash: fromHex('2AD963954E56AD5055D66D1D92D19CBEA6FF65A1DF246F13293C5548B6974691'),
      lastResultsHash: fromHex('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855'),
      evidenceHash: fromHex('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855'),
      proposerAddress: fromHex('2A4AEFBCD5934C1C7D80540822CC978DDE7BBF89'),
    };
    expect(toHexUpper(headerHash(h))).toBe('78AD39C7DBB0C28AA1DD4DBF909E8FC37522CAB177484871AB3FBD18B2F165B4');
  });

  it('hashes an empty app_hash as an empty leaf (real kvstore chain, height 3)', () => {
    const h: Header = kvstoreBlock3().header;
    expect(toHexUpper(headerHash(h))).toBe('7874C9B73AB92A004ABEEEE02FEF71616A632D7908A82CDF3C670CE76B9678B6');
  });

  it('changes when any of the 14 fields changes', () => {
    const base = toHexUpper(headerHash(cometHeader));
    const variants: Partial<Header>[] = [
      { version: { block: 11, app: 2 } },
      { chainId: 'other' },
      { height: 4 },
      { time: { seconds: cometHeader.time.seconds, nanos: 1 } },
      { lastBlockId: { hash: new Uint8Array(32), partSetHeader: { total: 7, hash: new Uint8Array(32) } } },
      { lastCommitHash: tm('x') },
      { dataHash: tm('x') },
      { validatorsHash: tm('x') },
      { nextValidatorsHash: tm('x') },
      { consensusHash: tm('x') },
      { appHash: tm('x') },
      { lastResultsHash: tm('x') },
      { evidenceHash: tm('x') },
      { proposerAddress: tm('x').slice(0, 20) },
    ];
    const hashes = new Set(variants.map((v) => toHexUpper(headerHash({ ...cometHeader, ...v }))));
    expect(hashes.size).toBe(14);
    expect(hashes.has(base)).toBe(false);
  });
});
