/**
 * CometBFT's genesis document: the domain form used by the node, and its JSON form
 * (`config/genesis.json`, the `genesis` RPC) with int64 as strings and amino-style pub keys.
 */
import { encodeConsensusParams } from '../codec/json/comet-json.js';
import { addressFromPubKey } from '../crypto/ed25519.js';
import { fromBase64, fromHex, toBase64, toHexUpper } from '../crypto/encoding.js';
import { defaultConsensusParams, type ConsensusParams } from '../types/params.js';
import { formatRfc3339Nano, parseRfc3339, type Timestamp } from '../types/time.js';

export interface GenesisValidator {
  address: Uint8Array;
  pubKey: Uint8Array;
  power: number;
  name: string;
}

export interface GenesisDoc {
  genesisTime: Timestamp;
  chainId: string;
  initialHeight: number;
  consensusParams: ConsensusParams;
  validators: GenesisValidator[];
  appHash: Uint8Array;
  /** The `app_state` JSON value, passed to the app's InitChain as bytes. */
  appState: unknown;
}

export class GenesisError extends Error {
  override name = 'GenesisError';
}


function num(v: unknown, what: string): number {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  if (!Number.isSafeInteger(n)) throw new GenesisError(`genesis: ${what} must be an integer, got ${JSON.stringify(v)}`);
  return n;
}

export function consensusParamsFromJson(j: unknown): ConsensusParams {
  const d = defaultConsensusParams();
  if (j === undefined || j === null) return d;
  const o = j as Record<string, Record<string, unknown> | undefined>;
  return {
    block: {
      maxBytes: o.block?.max_bytes !== undefined ? num(o.block.max_bytes, 'block.max_bytes') : d.block.maxBytes,
      maxGas: o.block?.max_gas !== undefined ? num(o.block.max_gas, 'block.max_gas') : d.block.maxGas,
    },
    evidence: {
      maxAgeNumBlocks: o.evidence?.max_age_num_blocks !== undefined ? num(o.evidence.max_age_num_blocks, 'evidence.max_age_num_blocks') : d.evidence.maxAgeNumBlocks,
      maxAgeDurationNs: o.evidence?.max_age_duration !== undefined ? BigInt(String(o.evidence.max_age_duration)) : d.evidence.maxAgeDurationNs,
      maxBytes: o.evidence?.max_bytes !== undefined ? num(o.evidence.max_bytes, 'evidence.max_bytes') : d.evidence.maxBytes,
    },
    validator: { pubKeyTypes: (o.validator?.pub_key_types as string[] | undefined) ?? d.validator.pubKeyTypes },
    version: { app: o.version?.app !== undefined ? num(o.version.app, 'version.app') : 0 },
    abci: {
      voteExtensionsEnableHeight: o.abci?.vote_extensions_enable_height !== undefined ? num(o.abci.vote_extensions_enable_height, 'abci.vote_extensions_enable_height') : 0,
    },
  };
}

export function genesisToJson(g: GenesisDoc): Record<string, unknown> {
  return {
    genesis_time: formatRfc3339Nano(g.genesisTime),
    chain_id: g.chainId,
    initial_height: String(g.initialHeight),
    consensus_params: encodeConsensusParams(g.consensusParams),
    validators: g.validators.map((v) => ({
      address: toHexUpper(v.address),
      pub_key: { type: 'tendermint/PubKeyEd25519', value: toBase64(v.pubKey) },
      power: String(v.power),
      name: v.name,
    })),
    app_hash: toHexUpper(g.appHash),
    app_state: g.appState,
  };
}

export function genesisFromJson(j: unknown): GenesisDoc {
  if (j === null || typeof j !== 'object') throw new GenesisError('genesis: not a JSON object');
  const o = j as Record<string, unknown>;
  if (typeof o.chain_id !== 'string' || o.chain_id.length === 0) throw new GenesisError('genesis doc must include non-empty chain_id');
  if (o.chain_id.length > 50) throw new GenesisError(`chain_id in genesis doc is too long (max: 50)`);
  const vals = (o.validators as unknown[] | undefined) ?? [];
  const validators = vals.map((raw, i): GenesisValidator => {
    const v = raw as Record<string, unknown>;
    const pk = v.pub_key as { type?: string; value?: string } | undefined;
    if (!pk || pk.type !== 'tendermint/PubKeyEd25519' || typeof pk.value !== 'string') {
      throw new GenesisError(`genesis: validator ${i} must have an ed25519 pub_key`);
    }
    const pubKey = fromBase64(pk.value);
    const power = num(v.power, `validators[${i}].power`);
    if (power <= 0) throw new GenesisError(`the genesis file cannot contain validators with no voting power: validator ${i}`);
    const address = addressFromPubKey(pubKey);
    if (typeof v.address === 'string' && v.address !== '' && toHexUpper(fromHex(v.address)) !== toHexUpper(address)) {
      throw new GenesisError(`incorrect address for validator ${i} in the genesis file, should be ${toHexUpper(address)}`);
    }
    return { address, pubKey, power, name: typeof v.name === 'string' ? v.name : '' };
  });
  return {
    genesisTime: typeof o.genesis_time === 'string' ? parseRfc3339(o.genesis_time) : { seconds: Math.floor(Date.now() / 1000), nanos: 0 },
    chainId: o.chain_id,
    initialHeight: o.initial_height === undefined ? 1 : num(o.initial_height, 'initial_height'),
    consensusParams: consensusParamsFromJson(o.consensus_params),
    validators,
    appHash: typeof o.app_hash === 'string' && o.app_hash !== '' ? fromHex(o.app_hash) : new Uint8Array(0),
    appState: o.app_state ?? {},
  };
}
