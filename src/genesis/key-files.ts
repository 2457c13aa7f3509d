/** CometBFT's key files: `priv_validator_key.json` and `node_key.json`, amino-JSON as CometBFT writes them. */
import { ed25519FromSeed, type Ed25519Key } from '../crypto/ed25519.js';
import { concatBytes, fromBase64, toBase64, toHex, toHexUpper } from '../crypto/encoding.js';

export function privValidatorKeyToJson(k: Ed25519Key): Record<string, unknown> {
  return {
    address: toHexUpper(k.address),
    pub_key: { type: 'tendermint/PubKeyEd25519', value: toBase64(k.publicKey) },
    // CometBFT stores the 64-byte form: seed followed by the public key.
    priv_key: { type: 'tendermint/PrivKeyEd25519', value: toBase64(concatBytes(k.seed, k.publicKey)) },
  };
}

export function nodeKeyToJson(k: Ed25519Key): Record<string, unknown> {
  return { priv_key: { type: 'tendermint/PrivKeyEd25519', value: toBase64(concatBytes(k.seed, k.publicKey)) } };
}

function keyFromAmino(priv: unknown, what: string): Ed25519Key {
  const p = priv as { type?: string; value?: string } | undefined;
  if (!p || p.type !== 'tendermint/PrivKeyEd25519' || typeof p.value !== 'string') throw new Error(`${what}: expected an ed25519 priv_key`);
  const raw = fromBase64(p.value);
  if (raw.length !== 64 && raw.length !== 32) throw new Error(`${what}: ed25519 private key must be 64 bytes, got ${raw.length}`);
  return ed25519FromSeed(raw.subarray(0, 32));
}

export function privValidatorKeyFromJson(j: unknown): Ed25519Key {
  return keyFromAmino((j as Record<string, unknown>).priv_key, 'priv_validator_key.json');
}

export function nodeKeyFromJson(j: unknown): Ed25519Key {
  return keyFromAmino((j as Record<string, unknown>).priv_key, 'node_key.json');
}

/** The node ID: lower-case hex of the node key's address, as CometBFT's p2p.ID. */
export function nodeId(k: Ed25519Key): string {
  return toHex(k.address);
}
