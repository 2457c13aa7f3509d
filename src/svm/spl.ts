/** SPL Token layouts the ledger and the RPC read: token accounts (165 bytes) and mints (82 bytes). */
import { getBase58Codec } from '@solana/kit';

export const TOKEN_ACCOUNT_SIZE = 165;
export const MINT_SIZE = 82;

const b58 = getBase58Codec();

/** SPL token account fields (jsonParsed). */
export function parseTokenAccount(data: Uint8Array): { mint: string; owner: string; amount: bigint; state: number; isNative: boolean } | undefined {
  if (data.length !== TOKEN_ACCOUNT_SIZE) return undefined;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    mint: b58.decode(data.subarray(0, 32)),
    owner: b58.decode(data.subarray(32, 64)),
    amount: dv.getBigUint64(64, true),
    state: data[108]!,
    isNative: dv.getUint32(109, true) === 1,
  };
}

export function parseMint(
  data: Uint8Array,
): { supply: bigint; decimals: number; mintAuthority: string | null; freezeAuthority: string | null; isInitialized: boolean } | undefined {
  if (data.length !== MINT_SIZE) return undefined;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    mintAuthority: dv.getUint32(0, true) === 1 ? b58.decode(data.subarray(4, 36)) : null,
    supply: dv.getBigUint64(36, true),
    decimals: data[44]!,
    isInitialized: data[45] === 1,
    freezeAuthority: dv.getUint32(46, true) === 1 ? b58.decode(data.subarray(50, 82)) : null,
  };
}
