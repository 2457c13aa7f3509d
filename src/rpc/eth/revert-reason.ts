/**
 * The human reason in revert data, as geth puts it after "execution reverted: ": the string of a
 * Solidity `Error(string)`, or the meaning of a `Panic(uint256)` code. Custom errors have no
 * reason (clients decode them from `data` with the ABI). One decoder serves the tracers (in the
 * app layer, which the RPC may import) and the RPC.
 */
export { revertReason as decodeRevertReason } from '../../app/evm/vm-errors.js';
