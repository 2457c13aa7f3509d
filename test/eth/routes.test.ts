/**
 * The routes table against its references, both ways: every eth/net/web3 method of the
 * execution-apis spec is served or knowingly left out (Cosmos EVM lacks it), every served method
 * is in the spec or a known extension; Cosmos EVM's method set (REFERENCE §2.1) is complete; and
 * docs/rpc-eth.md documents exactly the table.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ETH_ROUTES, UNSUPPORTED, enabledNamespaces } from '../../src/rpc/eth/routes.js';
import { SPEC_PATH, specMethods } from './json-schema.js';

const served = new Set<string>(ETH_ROUTES.flatMap((r) => [r.method, ...r.aliases]));

/** In the spec, deliberately not served: Cosmos EVM does not implement them (REFERENCE §2.1). */
const NOT_OFFERED = [
  'eth_baseFee',
  'eth_blobBaseFee',
  'eth_capabilities',
  'eth_coinbase',
  'eth_config',
  'eth_getBlockAccessList',
  'eth_getStorageValues',
  'eth_signTransaction',
  'eth_fillTransaction',
];

/** Served, not in the spec: Cosmos EVM / geth extensions. */
const EXTENSIONS = [
  'eth_sendUnsignedTransaction',
  'eth_protocolVersion',
  'eth_getHeaderByNumber',
  'eth_getHeaderByHash',
  'eth_getUncleByBlockHashAndIndex',
  'eth_getUncleByBlockNumberAndIndex',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber',
  'eth_getTransactionLogs',
  'eth_resend',
  'eth_signTypedData_v4',
  'eth_signTypedData',
  'eth_subscribe',
  'eth_unsubscribe',
  'web3_clientVersion',
  'web3_sha3',
  'net_listening',
  'net_peerCount',
];

/** Cosmos EVM's eth, filter, pubsub, web3 and net methods (REFERENCE §2.1), fillTransaction aside. */
const COSMOS_EVM = `blockNumber getBlockByNumber getBlockByHash getBlockReceipts getHeaderByNumber getHeaderByHash
  getTransactionByHash getTransactionCount getTransactionReceipt getBlockTransactionCountByHash getBlockTransactionCountByNumber
  getTransactionByBlockHashAndIndex getTransactionByBlockNumberAndIndex sendRawTransaction sendTransaction accounts getBalance
  getStorageAt getCode getProof call protocolVersion gasPrice estimateGas feeHistory maxPriorityFeePerGas chainId
  getUncleByBlockHashAndIndex getUncleByBlockNumberAndIndex getUncleCountByBlockHash getUncleCountByBlockNumber syncing sign
  getTransactionLogs signTypedData resend createAccessList newPendingTransactionFilter newBlockFilter newFilter getLogs
  uninstallFilter getFilterLogs getFilterChanges subscribe unsubscribe`
  .split(/\s+/)
  .map((m) => `eth_${m}`)
  .concat(['web3_clientVersion', 'web3_sha3', 'net_version', 'net_listening', 'net_peerCount']);

describe('routes table', () => {
  it('serves Cosmos EVM’s method set, plus eth_simulateV1', () => {
    for (const m of [...COSMOS_EVM, 'eth_simulateV1']) expect(served, m).toContain(m);
  });

  it('has no duplicate names and namespaces match prefixes', () => {
    const names = ETH_ROUTES.flatMap((r) => [r.method, ...r.aliases]);
    expect(new Set(names).size).toBe(names.length);
    for (const r of ETH_ROUTES) expect(r.method.startsWith(`${r.namespace}_`)).toBe(true);
    expect(Object.isFrozen(ETH_ROUTES)).toBe(true);
  });

  it('marks the seed’s unsupported methods', () => {
    expect(UNSUPPORTED.methods).toContain('eth_fillTransaction');
    expect(UNSUPPORTED.prefixes).toEqual(expect.arrayContaining(['debug_getRaw', 'trace_', 'engine_']));
    expect(served.has('eth_fillTransaction')).toBe(false);
  });

  it('enables namespaces from `api` and the devnet flag', () => {
    expect([...enabledNamespaces(['eth', ' Web3 ', ''], false)]).toEqual(['eth', 'web3']);
    expect(enabledNamespaces(['eth'], true).has('anvil')).toBe(true);
  });
});

describe.skipIf(SPEC_PATH === undefined)('routes table vs the execution-apis spec, both ways', () => {
  const spec = specMethods().filter((m) => /^(eth|net|web3)_/.test(m));
  it('every spec method is served or knowingly not offered', () => {
    for (const m of spec) expect(served.has(m) || NOT_OFFERED.includes(m), m).toBe(true);
  });
  it('every served eth/net/web3 method is in the spec or a known extension', () => {
    for (const m of served) if (/^(eth|net|web3)_/.test(m)) expect(spec.includes(m) || EXTENSIONS.includes(m), m).toBe(true);
  });
});

describe('docs/rpc-eth.md', () => {
  const doc = readFileSync(new URL('../../docs/rpc-eth.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| `([a-z0-9]+_[A-Za-z0-9_]+)`/gm)].map((m) => m[1]!);
  it('documents every route and alias, and nothing else', () => {
    expect(new Set(rows)).toEqual(new Set(ETH_ROUTES.map((r) => r.method)));
    for (const r of ETH_ROUTES) for (const a of r.aliases) expect(doc).toContain(a);
  });
});
