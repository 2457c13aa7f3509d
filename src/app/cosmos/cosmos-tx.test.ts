/**
 * The key type of a tx's signer: a secp256k1 key URL around an Ethereum key whose eth_secp256k1
 * address is the signer is that signer's eth_secp256k1 key; and the signed-size bound Simulate
 * charges for an unsigned tx covers the same tx signed with a fee.
 */
import { encodeSecp256k1Pubkey } from '@cosmjs/amino';
import { DirectEthSecp256k1HdWallet, encodePubkey, makeAuthInfoBytes, makeSignDoc, Registry } from '@cosmjs/proto-signing';
import { defaultRegistryTypes } from '@cosmjs/stargate';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { describe, expect, it } from 'vitest';
import { toBech32 } from '../../crypto/bech32.js';
import { DEV_MNEMONIC } from '../../genesis/dev-accounts.js';
import { decodeCosmosTx, signedSizeBound, verifyCosmosSignature } from './cosmos-tx.js';

const CHAIN_ID = 'chainlet_9000-1';
const registry = new Registry(defaultRegistryTypes);

async function tx(opts: { from?: string; fee?: { amount: { denom: string; amount: string }[]; gas: number }; signed: boolean }): Promise<Uint8Array> {
  const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'chainlet' });
  const [acc] = await wallet.getAccounts();
  const from = opts.from ?? acc!.address;
  const bodyBytes = registry.encode({
    typeUrl: '/cosmos.tx.v1beta1.TxBody',
    value: {
      messages: [{ typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: { fromAddress: from, toAddress: from, amount: [{ denom: 'achainlet', amount: '1' }] } }],
      memo: '',
    },
  });
  // The secp256k1 key URL, as @skip-go/client and cosmjs' simulate send an Ethereum key.
  const pubkey = encodePubkey(encodeSecp256k1Pubkey(acc!.pubkey));
  const fee = opts.fee ?? { amount: [], gas: 0 };
  const authInfoBytes = makeAuthInfoBytes([{ pubkey, sequence: 3 }], fee.amount, fee.gas, undefined, undefined);
  if (!opts.signed) return TxRaw.encode({ bodyBytes, authInfoBytes, signatures: [new Uint8Array(0)] }).finish();
  const { signature } = await wallet.signDirect(acc!.address, makeSignDoc(bodyBytes, authInfoBytes, CHAIN_ID, 7));
  return TxRaw.encode({ bodyBytes, authInfoBytes, signatures: [Buffer.from(signature.signature, 'base64')] }).finish();
}

const decode = (bytes: Uint8Array) => decodeCosmosTx(bytes, new Uint8Array(32), '00', 'chainlet');

describe('decodeCosmosTx: the signer’s key type', () => {
  it('takes a secp256k1 key URL whose eth_secp256k1 address is the signer as an eth_secp256k1 key', async () => {
    const d = decode(await tx({ signed: true, fee: { amount: [{ denom: 'achainlet', amount: '1000' }], gas: 100_000 } }));
    expect(d.signer.pubKeyType).toBe('eth_secp256k1');
    expect(d.senderHex).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    expect(verifyCosmosSignature(d, CHAIN_ID, 7n)).toBeUndefined();
  });

  it('keeps secp256k1 when neither address is the signer (the ante then refuses the mismatch)', async () => {
    const d = decode(await tx({ signed: true, from: toBech32('chainlet', new Uint8Array(20).fill(9)) }));
    expect(d.signer.pubKeyType).toBe('secp256k1');
  });
});

describe('signedSizeBound', () => {
  it('an unsigned tx without a fee is counted at least as large as it is once signed with one', async () => {
    const unsigned = decode(await tx({ signed: false }));
    const signed = await tx({ signed: true, fee: { amount: [{ denom: 'achainlet', amount: '2000000000000000000' }], gas: 3_000_000 } });
    expect(signedSizeBound(unsigned, 'achainlet')).toBeGreaterThanOrEqual(signed.length);
    // A signed tx is its own size.
    expect(signedSizeBound(decode(signed), 'achainlet')).toBe(signed.length);
  });
});
