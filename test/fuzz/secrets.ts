/** Key material of the default network that no answer may ever contain. */
import { base58 } from '@scure/base';
import { deriveDevAccounts, DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { deterministicValidatorKey } from '../../src/genesis/devnet.js';
import { RELAYER_PRIVATE_KEY } from '../../src/network/ibc/relayer-key.js';
import { deriveSolanaAccounts } from '../../src/svm/keys.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

export function networkSecrets(chainIds: readonly string[]): string[] {
  const out = [DEV_MNEMONIC, hex(RELAYER_PRIVATE_KEY), b64(RELAYER_PRIVATE_KEY)];
  for (const a of deriveDevAccounts(20)) out.push(a.privateKey.slice(2).toLowerCase());
  for (const k of deriveSolanaAccounts(DEV_MNEMONIC, 10)) {
    out.push(base58.encode(k.secretKey), hex(k.secretKey.subarray(0, 32)), b64(k.secretKey), `[${k.secretKey.subarray(0, 8).join(',')},`);
  }
  for (const id of chainIds) {
    for (let i = 0; i < 4; i++) {
      const v = deterministicValidatorKey(id, i);
      out.push(hex(v.seed), b64(v.seed));
    }
  }
  return out;
}

/** The first secret found in `text` (hex compared case-insensitively), or undefined. */
export function findSecret(text: string, secrets: readonly string[]): string | undefined {
  const lower = text.toLowerCase();
  return secrets.find((s) => (/^[0-9a-f]+$/.test(s) ? lower.includes(s) : text.includes(s)));
}
