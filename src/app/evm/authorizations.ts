/**
 * EIP-7702 authorization lists in calls and estimates (type-4 txs): each valid authorization
 * delegates its authority's code to `0xef0100 ‖ address` (or clears it for the zero address) and
 * bumps the authority's nonce, as runTx does before execution. Invalid ones are skipped. An
 * authority that already existed refunds 12500 gas (perEmptyAccountCost − perAuthBaseGas).
 */
import type { EVM } from '@ethereumjs/evm';
import { Account, bigIntToUnpaddedBytes, eoaCode7702RecoverAuthority, type Address } from '@ethereumjs/util';
import type { Authorization } from './message.js';
import type { OverlayState } from './overlay-state.js';

const DELEGATION = Uint8Array.of(0xef, 0x01, 0x00);
const SECP256K1_N_DIV_2 = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
const MAX_NONCE = 2n ** 64n - 1n;

function isDelegation(code: Uint8Array): boolean {
  return code.length >= 3 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00;
}

/** Applies the list; returns the gas refund it earns. */
export async function applyAuthorizations(evm: EVM, state: OverlayState, auths: readonly Authorization[]): Promise<bigint> {
  if (auths.length === 0) return 0n;
  const common = evm.common;
  const refundPerExisting = common.param('perEmptyAccountCost') - common.param('perAuthBaseGas');
  let refund = 0n;
  for (const a of auths) {
    if (a.chainId !== 0n && a.chainId !== common.chainId()) continue;
    if (a.nonce >= MAX_NONCE || a.s > SECP256K1_N_DIV_2 || a.yParity > 1) continue;
    let authority: Address;
    try {
      authority = eoaCode7702RecoverAuthority([
        bigIntToUnpaddedBytes(a.chainId),
        a.address,
        bigIntToUnpaddedBytes(a.nonce),
        bigIntToUnpaddedBytes(BigInt(a.yParity)),
        bigIntToUnpaddedBytes(a.r),
        bigIntToUnpaddedBytes(a.s),
      ]);
    } catch {
      continue;
    }
    const existing = await state.getAccount(authority);
    const account = existing ?? new Account();
    evm.journal.addAlwaysWarmAddress(authority.toString());
    if (account.isContract() && !isDelegation(await state.getCode(authority))) continue;
    if (account.nonce !== a.nonce) continue;
    if (existing !== undefined) refund += refundPerExisting;
    account.nonce++;
    await evm.journal.putAccount(authority, account);
    const clearing = a.address.every((b) => b === 0);
    const code = new Uint8Array(clearing ? 0 : 23);
    if (!clearing) {
      code.set(DELEGATION);
      code.set(a.address, 3);
    }
    await state.putCode(authority, code);
  }
  return refund;
}
