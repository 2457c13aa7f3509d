/**
 * THE table of the Ethereum JSON-RPC: every method, its namespace, its typed params and its
 * handler. HTTP, WebSocket, the in-process provider, namespace enabling and docs/rpc-eth.md all
 * read it; nothing else lists methods. More namespaces (txpool, debug, personal, admin, miner,
 * and the devnet's evm/anvil/hardhat) are added by concatenating their own route lists in
 * ETH_ROUTES; `api` (plus `[evm] devnet` for the devnet namespaces) decides which are served.
 */
import * as accounts from './accounts.js';
import * as block from './block.js';
import { blockNumberOf, blockNumberOrHashOf } from './block-param.js';
import * as call from './call.js';
import { typedDataOf } from './eip712.js';
import * as estimate from './estimate.js';
import { stateOverridesOf } from './state-overrides.js';
import * as fees from './fees.js';
import * as filter from './filter.js';
import { logCriteriaOf } from './log-filter.js';
import * as net from './net.js';
import {
  addressOf,
  anyOf,
  arrayOf,
  bigOf,
  boolOf,
  bytesOf,
  hashOf,
  hexOrDecimalOf,
  jsonKind,
  optional,
  required,
  slotOf,
  stringOf,
  typeError,
  uint64Of,
  type Decoder,
} from './params.js';
import { DEBUG_ROUTES } from './namespaces/debug.js';
import { NODE_NAMESPACE_ROUTES } from './namespaces/node-namespaces.js';
import { TXPOOL_ROUTES } from './namespaces/txpool.js';
import * as pubsub from './pubsub.js';
import { route, type AnyEthRoute } from './route.js';
import { simulatePayloadOf, simulateV1 } from './simulate.js';
import * as state from './state.js';
import * as tx from './transaction.js';
import { txArgsOf } from './tx-args.js';
import * as web3 from './web3.js';

const address = required('address', 'Address', addressOf());
const blockOrHash = optional('block', 'BlockNumberOrHash', blockNumberOrHashOf);
const blockNumber = required('block', 'BlockNumber', blockNumberOf);
const blockHash = required('blockHash', 'Hash', hashOf());
const txHash = required('txHash', 'Hash', hashOf());
const fullTx = optional('fullTransactions', 'bool', boolOf);
const index = required('index', 'Uint', uint64Of());
const callArgs = required('transaction', 'TransactionArgs', txArgsOf);
const overrides = optional('stateOverrides', 'StateOverride', stateOverridesOf);
const filterId = required('filterId', 'ID', stringOf);
const numberOf: Decoder<number> = (raw) => {
  if (typeof raw !== 'number') throw typeError(jsonKind(raw), 'float64');
  return raw;
};

const ETH = [
  route('eth_chainId', { params: [], handler: net.chainId, doc: 'EVM chain id (genesis `app_state.evm.chain_id`).' }),
  route('eth_syncing', { params: [], handler: net.syncing, doc: 'Always `false`: the node is its own network.' }),
  route('eth_protocolVersion', { params: [], handler: net.protocolVersion, doc: 'eth protocol version 65 (`0x41`), as Cosmos EVM.' }),
  route('eth_blockNumber', { params: [], handler: block.blockNumber, doc: 'Last committed CometBFT height.' }),
  route('eth_getBlockByNumber', {
    params: [blockNumber, fullTx],
    handler: block.getBlockByNumber,
    doc: 'Block at a height or tag; hash = CometBFT header hash; `null` above the head.',
  }),
  route('eth_getBlockByHash', { params: [blockHash, fullTx], handler: block.getBlockByHash, doc: 'Block by CometBFT hash, or `null`.' }),
  route('eth_getHeaderByNumber', { params: [blockNumber], handler: block.getHeaderByNumber, doc: 'Header fields of a block (no transactions).' }),
  route('eth_getHeaderByHash', { params: [blockHash], handler: block.getHeaderByHash, doc: 'Header fields of a block by hash.' }),
  route('eth_getBlockTransactionCountByNumber', {
    params: [blockNumber],
    handler: block.getBlockTransactionCountByNumber,
    doc: 'Number of executed EVM txs in a block.',
  }),
  route('eth_getBlockTransactionCountByHash', {
    params: [blockHash],
    handler: block.getBlockTransactionCountByHash,
    doc: 'Number of executed EVM txs in a block, by hash.',
  }),
  route('eth_getUncleByBlockHashAndIndex', { params: [blockHash, index], handler: block.getUncle, doc: 'Always `null` (no uncles).' }),
  route('eth_getUncleByBlockNumberAndIndex', { params: [blockNumber, index], handler: block.getUncle, doc: 'Always `null` (no uncles).' }),
  route('eth_getUncleCountByBlockHash', { params: [blockHash], handler: block.getUncleCount, doc: 'Always `0x0`.' }),
  route('eth_getUncleCountByBlockNumber', { params: [blockNumber], handler: block.getUncleCount, doc: 'Always `0x0`.' }),
  route('eth_getBlockReceipts', {
    params: [required('block', 'BlockNumberOrHash', blockNumberOrHashOf)],
    handler: block.getBlockReceipts,
    doc: 'All receipts of a block, in order.',
  }),
  route('eth_getTransactionByHash', {
    params: [txHash],
    handler: tx.getTransactionByHash,
    doc: 'A mined tx, else a pending one (block fields `null`), else `null`.',
  }),
  route('eth_getTransactionByBlockHashAndIndex', {
    params: [blockHash, index],
    handler: tx.getTransactionByBlockHashAndIndex,
    doc: 'The tx at an index of a block.',
  }),
  route('eth_getTransactionByBlockNumberAndIndex', {
    params: [blockNumber, index],
    handler: tx.getTransactionByBlockNumberAndIndex,
    doc: 'The tx at an index of a block.',
  }),
  route('eth_getTransactionReceipt', {
    params: [txHash],
    handler: tx.getTransactionReceipt,
    doc: 'Receipt of a mined tx (status, cumulativeGasUsed, logs, bloom…), else `null`.',
  }),
  route('eth_getTransactionLogs', { params: [txHash], handler: tx.getTransactionLogs, doc: 'Logs of one mined tx (Cosmos EVM extension).' }),
  route('eth_sendRawTransaction', {
    params: [required('data', 'Bytes', bytesOf())],
    handler: tx.sendRawTransaction,
    doc: 'Signed tx (types 0, 1, 2, 4) through CheckTx into the mempool; refusals in geth words.',
  }),
  route('eth_sendUnsignedTransaction', {
    params: [callArgs],
    handler: accounts.sendTransaction,
    doc: 'Anvil’s name for sending without the caller’s signature: as `eth_sendTransaction`, from a dev, unlocked or impersonated account.',
  }),
  route('eth_sendTransaction', {
    params: [callArgs],
    handler: accounts.sendTransaction,
    doc: 'Fills nonce, gas and fees, signs with a dev account and submits.',
  }),
  route('eth_resend', {
    params: [callArgs, optional('gasPrice', 'Big', bigOf()), optional('gasLimit', 'Uint64', uint64Of())],
    handler: accounts.resend,
    doc: 'Re-sends a dev account tx (same nonce) with new gas price / limit.',
  }),
  route('eth_accounts', { params: [], handler: accounts.accounts, doc: 'The dev accounts the node holds keys for.' }),
  route('eth_sign', { params: [address, required('message', 'Bytes', bytesOf())], handler: accounts.sign, doc: 'EIP-191 signature by a dev account.' }),
  route('eth_signTypedData_v4', {
    params: [address, required('typedData', 'TypedData', typedDataOf)],
    handler: accounts.signTypedData,
    aliases: ['eth_signTypedData'],
    doc: 'EIP-712 signature by a dev account.',
  }),
  route('eth_getBalance', { params: [address, blockOrHash], handler: state.getBalance, doc: 'Balance (wei) at a block; default `latest`.' }),
  route('eth_getTransactionCount', {
    params: [address, blockOrHash],
    handler: state.getTransactionCount,
    doc: 'Nonce at a block; at `pending` counts the sender’s executable mempool txs.',
  }),
  route('eth_getCode', { params: [address, blockOrHash], handler: state.getCode, doc: 'Contract code at a block.' }),
  route('eth_getStorageAt', {
    params: [address, required('slot', 'Hash', slotOf), blockOrHash],
    handler: state.getStorageAt,
    doc: 'A storage word at a block.',
  }),
  route('eth_getProof', {
    params: [address, required('storageKeys', '[]Hash', arrayOf(slotOf, '[]string')), blockOrHash],
    handler: state.getProof,
    doc: 'EIP-1186 account and storage proofs against the block’s state root.',
  }),
  route('eth_call', {
    params: [callArgs, blockOrHash, overrides],
    handler: call.call,
    doc: 'Executes on a private copy of the state; state overrides; revert → code 3 + data.',
  }),
  route('eth_estimateGas', {
    params: [callArgs, blockOrHash, overrides],
    handler: estimate.estimateGas,
    doc: 'Exact least gas limit at which the tx succeeds (two executions for ordinary txs).',
  }),
  route('eth_createAccessList', {
    params: [callArgs, blockOrHash],
    handler: call.createAccessList,
    doc: 'EIP-2930 access list the tx touches, with its gas used.',
  }),
  route('eth_simulateV1', {
    params: [required('payload', 'SimulatePayload', simulatePayloadOf), blockOrHash],
    handler: simulateV1,
    doc: 'Simulated blocks of calls with block and state overrides (Anvil/geth; not in Cosmos EVM).',
  }),
  route('eth_gasPrice', { params: [], handler: fees.gasPrice, doc: 'Next base fee + suggested tip (1 gwei).' }),
  route('eth_maxPriorityFeePerGas', { params: [], handler: fees.maxPriorityFeePerGas, doc: 'Suggested tip: 1 gwei.' }),
  route('eth_feeHistory', {
    params: [
      required('blockCount', 'HexOrDecimal', hexOrDecimalOf),
      required('newestBlock', 'BlockNumber', blockNumberOf),
      optional('rewardPercentiles', '[]float64', arrayOf(numberOf, '[]float64')),
    ],
    handler: fees.feeHistory,
    doc: 'Base fees, gas used ratios and tip percentiles; at most `feehistory-cap` blocks.',
  }),
  route('eth_newFilter', { params: [required('criteria', 'FilterCriteria', logCriteriaOf)], handler: filter.newFilter, doc: 'Installs a log filter.' }),
  route('eth_newBlockFilter', { params: [], handler: filter.newBlockFilter, doc: 'Installs a new-block filter.' }),
  route('eth_newPendingTransactionFilter', {
    params: [optional('fullTx', 'bool', boolOf)],
    handler: filter.newPendingTransactionFilter,
    doc: 'Installs a pending-tx filter (hashes).',
  }),
  route('eth_getFilterChanges', {
    params: [filterId],
    handler: filter.getFilterChanges,
    doc: 'What a filter saw since its last poll; idle filters expire after `filter-timeout`.',
  }),
  route('eth_getFilterLogs', { params: [filterId], handler: filter.getFilterLogs, doc: 'All logs matching a log filter.' }),
  route('eth_uninstallFilter', { params: [filterId], handler: filter.uninstallFilter, doc: 'Removes a filter.' }),
  route('eth_getLogs', {
    params: [required('criteria', 'FilterCriteria', logCriteriaOf)],
    handler: filter.getLogs,
    doc: 'Logs over a range (`block-range-cap`) or one block hash; at most `logs-cap` results.',
  }),
  route('eth_subscribe', {
    params: [required('kind', 'string', stringOf), optional('options', 'object', anyOf)],
    handler: pubsub.subscribe,
    wsOnly: true,
    doc: 'WebSocket: `newHeads`, `logs` (address/topics), `newPendingTransactions`; `syncing` is not supported.',
  }),
  route('eth_unsubscribe', { params: [required('id', 'ID', stringOf)], handler: pubsub.unsubscribe, wsOnly: true, doc: 'WebSocket: ends a subscription.' }),
] as const;

const WEB3 = [
  route('web3_clientVersion', {
    params: [],
    handler: web3.clientVersion,
    doc: '`anvil-compatible Chainlet/v<version>/<platform>/node<version>` with devnet control on, else `Chainlet/v…`; `[json-rpc] client-version` replaces it.',
  }),
  route('web3_sha3', { params: [required('data', 'Bytes', bytesOf())], handler: web3.sha3, doc: 'Keccak-256 of the given bytes.' }),
] as const;

const NET = [
  route('net_version', { params: [], handler: net.version, doc: 'EVM chain id as a decimal string.' }),
  route('net_listening', { params: [], handler: net.listening, doc: 'Always `true`.' }),
  route('net_peerCount', { params: [], handler: net.peerCount, doc: 'Always `0`, as a JSON number (as Cosmos EVM).' }),
] as const;

export const ETH_ROUTES = Object.freeze([
  ...ETH,
  ...WEB3,
  ...NET,
  ...TXPOOL_ROUTES,
  ...DEBUG_ROUTES,
  ...NODE_NAMESPACE_ROUTES,
]) satisfies readonly AnyEthRoute[];

/** Every method name the table serves (aliases excluded). */
export type EthMethod = (typeof ETH_ROUTES)[number]['method'];

/** Methods the seed lists as unsupported: a clear "not supported" error, whatever `api` says. */
export const UNSUPPORTED = Object.freeze({
  methods: ['eth_fillTransaction'] as readonly string[],
  prefixes: ['debug_getRaw', 'trace_', 'engine_'] as readonly string[],
});

/** The namespaces a node serves: `api`, plus evm/anvil/hardhat when `[evm] devnet` is on. */
export function enabledNamespaces(api: readonly string[], devnet: boolean): Set<string> {
  const s = new Set(api.map((n) => n.trim().toLowerCase()).filter((n) => n !== ''));
  if (devnet) for (const n of ['evm', 'anvil', 'hardhat', 'chainlet']) s.add(n);
  return s;
}
