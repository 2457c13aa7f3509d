/** What `chainlet start` prints: the dev accounts with their keys (as Anvil does), ids and endpoints. */
import { toHexUpper } from '../crypto/encoding.js';
import { DEV_MNEMONIC } from '../genesis/dev-accounts.js';
import type { ChainletNode } from '../node/node.js';
import { VERSION } from '../version.js';

export function printBanner(node: ChainletNode): void {
  const out: string[] = [];
  out.push(`chainlet ${VERSION}`, '');
  if (node.accounts.length > 0) {
    out.push('Available Accounts', '==================');
    for (const a of node.accounts) out.push(`(${a.index}) ${a.address} (10000 CHAINLET)`);
    out.push('', 'Private Keys', '==================');
    for (const a of node.accounts) out.push(`(${a.index}) ${a.privateKey}`);
    out.push('', 'Wallet', '==================', `Mnemonic:          ${DEV_MNEMONIC}`, `Derivation path:   m/44'/60'/0'/0/`, '');
  }
  out.push(`Chain ID (Cosmos): ${node.chainId}`, `Chain ID (EVM):    ${node.evmChainId}`);
  out.push(`Validators:        ${node.internals.validators.map((v) => `${toHexUpper(v.address).slice(0, 12)}${v.online ? '' : ' (offline)'}`).join(', ')}`);
  out.push(`Block production:  ${node.config.consensus.mode}`, '');
  const u = node.urls;
  if (u.rpc) out.push(`CometBFT RPC:      ${u.rpc}  (WebSocket ${u.rpcWs})`);
  if (u.jsonRpc) out.push(`Ethereum JSON-RPC: ${u.jsonRpc}  (WebSocket ${u.jsonRpcWs})`);
  if (u.routing) out.push(`Routing API:       ${u.routing}`);
  out.push('', `Listening at height ${node.height}. Ctrl-C to stop.`);
  console.log(out.join('\n'));
}
