/**
 * Devnet control over JSON-RPC: `evm_*` with the `anvil_*` / `hardhat_*` names Anvil and Hardhat
 * give the same operations. Served when `[evm] devnet` is on (the devnet profile's default).
 * Where Anvil and Hardhat answer differently (Anvil `null`, Hardhat `true`), each name answers
 * as its tool does; the work is the same (src/devnet/devnet-control.ts).
 */
import type { Address } from '@ethereumjs/util';
import type { EthEnv } from '../env.js';
import { data, quantity } from '../hex.js';
import { addressOf, boolOf, bytesOf, hashOf, optional, required, slotOf, type Param, type ParamValues } from '../params.js';
import { route } from '../route.js';
import { bigLike, guarded, intervalOf, mineArgOf, uintLike, type MineArg } from './namespace-params.js';
import { servicesOf } from './services.js';
import { anvilMetadata, anvilNodeInfo, hardhatMetadata, reset } from './devnet-metadata.js';
import { anyOf, stringOf } from '../params.js';
import { InvalidParamsError, ServerError } from '../errors.js';

const dev = (env: EthEnv) => servicesOf(env).devnet;
const relayerOf = (env: EthEnv) => {
  const r = dev(env).relayer;
  if (!r) throw new ServerError('this node has no IBC relayer: start a network with a hub chain (chainlet start --chains evm,hub)');
  return r;
};

const address = required('address', 'Address', addressOf());
const count = optional('blocks', 'Uint', uintLike);
const interval = optional('interval', 'Uint', uintLike);

// ── handlers (one per operation; each alias set below picks its answer) ─────────────────────

const mine = guarded(async (env: EthEnv, [blocks, seconds]: [number | undefined, number | undefined]) => {
  await dev(env).mine(blocks ?? 1, seconds ? { interval: seconds } : {});
});

const evmMine = guarded(async (env: EthEnv, [arg]: [MineArg | undefined]) => {
  await dev(env).mine(arg?.blocks ?? 1, arg?.timestamp === undefined ? {} : { timestamp: arg.timestamp });
  return '0x0';
});

const snapshot = guarded(async (env: EthEnv) => quantity(await dev(env).snapshot()));
const revert = guarded((env: EthEnv, [id]: [number]) => dev(env).revert(id));
const increaseTime = guarded((env: EthEnv, [seconds]: [number]) => dev(env).increaseTime(seconds));
const setNextBlockTimestamp = guarded((env: EthEnv, [ts]: [number]) => dev(env).setNextBlockTimestamp(ts));
const setAutomine = guarded((env: EthEnv, [on]: [boolean]) => dev(env).mining.setAutomine(on));
const getAutomine = (env: EthEnv) => dev(env).mining.isAutomine;
const setIntervalMining = guarded((env: EthEnv, [ms]: [number]) => dev(env).mining.setInterval(ms));
const setIntervalSeconds = guarded((env: EthEnv, [s]: [number]) => dev(env).mining.setInterval(s * 1000));
const getIntervalSeconds = (env: EthEnv) => Math.round(dev(env).mining.interval / 1000);
const setBlockGasLimit = guarded((env: EthEnv, [gas]: [bigint]) => dev(env).setBlockGasLimit(gas));

const setBalance = guarded((env: EthEnv, [a, wei]: [Address, bigint]) => dev(env).setBalance(a, wei));
const setCode = guarded((env: EthEnv, [a, code]: [Address, Uint8Array]) => dev(env).setCode(a, code));
const setNonce = guarded((env: EthEnv, [a, nonce]: [Address, bigint]) => dev(env).setNonce(a, nonce));
const setStorageAt = guarded((env: EthEnv, [a, slot, value]: [Address, Uint8Array, Uint8Array]) => dev(env).setStorageAt(a, slot, value));
const setCoinbase = guarded((env: EthEnv, [a]: [Address]) => dev(env).setCoinbase(a));
const setMinGasPrice = guarded((env: EthEnv, [wei]: [bigint]) => dev(env).setMinGasPrice(wei));

const impersonate = (env: EthEnv, [a]: [Address]) => dev(env).impersonate(a);
const stopImpersonating = (env: EthEnv, [a]: [Address]) => dev(env).stopImpersonating(a);
const autoImpersonate = (env: EthEnv, [on]: [boolean]) => dev(env).setAutoImpersonate(on);
const dropTransaction = (env: EthEnv, [hash]: [Uint8Array]) => dev(env).dropTransaction(hash);
const dropAll = (env: EthEnv) => dev(env).dropAllTransactions();

const setBlockTimestampInterval = guarded((env: EthEnv, [s]: [number]) => dev(env).setBlockTimestampInterval(s));
// viem's hardhat mode sends this interval in milliseconds (Hardhat itself has no such method).
const setBlockTimestampIntervalMs = guarded((env: EthEnv, [ms]: [number]) => dev(env).setBlockTimestampInterval(ms / 1000));
const removeBlockTimestampInterval = (env: EthEnv) => dev(env).removeBlockTimestampInterval();
const setNextBlockBaseFee = guarded((env: EthEnv, [wei]: [bigint]) => dev(env).setNextBlockBaseFee(wei));
const setLoggingEnabled = (env: EthEnv, [on]: [boolean]) => dev(env).setLoggingEnabled(on);
const setRpcUrl = (): never => {
  throw new InvalidParamsError('forking is not supported: Chainlet runs its own chain, so there is no fork URL to set');
};

const dumpState = guarded(async (env: EthEnv) => data(await dev(env).dumpState()));
const loadState = guarded(async (env: EthEnv, [dump]: [Uint8Array]) => {
  await dev(env).loadState(dump);
  return true;
});

/** Anvil answers `null` where Hardhat answers `true`. */
const anvil =
  <A extends unknown[]>(fn: (env: EthEnv, args: A) => unknown) =>
  async (env: EthEnv, args: A) => {
    await fn(env, args);
    return null;
  };
const hardhat =
  <A extends unknown[]>(fn: (env: EthEnv, args: A) => unknown) =>
  async (env: EthEnv, args: A) => {
    await fn(env, args);
    return true;
  };

/**
 * `anvil_<name>` and `hardhat_<name>`: the same params and operation, Anvil's answering `null` and
 * Hardhat's `true` (documented as "As `anvil_<name>`"). Aliases go to the Anvil name.
 */
function anvilAndHardhat<const N extends string, const P extends readonly Param<unknown>[]>(
  name: N,
  def: { params: P; handler: (env: EthEnv, args: ParamValues<P>) => unknown; doc: string; aliases?: readonly string[] },
) {
  return [
    route(`anvil_${name}`, { ...def, handler: anvil(def.handler) }),
    route(`hardhat_${name}`, { params: def.params, handler: hardhat(def.handler), doc: `As \`anvil_${name}\`; answers \`true\`.` }),
  ] as const;
}

// ── the routes ──────────────────────────────────────────────────────────────────────────

export const DEVNET_ROUTES = [
  route('evm_mine', {
    params: [optional('options', 'MineOptions', mineArgOf)],
    handler: evmMine,
    doc: 'Mines one block now (or `blocks` blocks), at `timestamp` if given (a number, or Anvil’s `{timestamp, blocks}`).',
  }),
  ...anvilAndHardhat('mine', {
    params: [count, interval],
    handler: mine,
    doc: 'Mines `blocks` blocks (default 1) `interval` seconds apart (default 1); empty blocks as one range (10 000 in well under a second); at most `[evm] max-mine-blocks` (default 100 000), else -32602.',
  }),
  route('evm_snapshot', {
    params: [],
    handler: snapshot,
    aliases: ['anvil_snapshot', 'hardhat_snapshot'],
    doc: 'Snapshot of the whole node (chain, state, mempool, clock); returns its id.',
  }),
  route('evm_revert', {
    params: [required('id', 'Uint', uintLike)],
    handler: revert,
    aliases: ['anvil_revert', 'hardhat_revert'],
    doc: 'Back to a snapshot; it and later ones are deleted and its id is handed out again; unknown id → `false`.',
  }),
  route('evm_increaseTime', {
    params: [required('seconds', 'Uint', uintLike)],
    handler: increaseTime,
    aliases: ['anvil_increaseTime', 'hardhat_increaseTime'],
    doc: 'Moves the block clock forward; returns the total offset in seconds.',
  }),
  route('evm_setNextBlockTimestamp', {
    params: [required('timestamp', 'Uint', uintLike)],
    handler: anvil(setNextBlockTimestamp),
    aliases: ['anvil_setNextBlockTimestamp', 'hardhat_setNextBlockTimestamp'],
    doc: 'Unix time of the next block; must be after the latest block’s.',
  }),
  route('evm_setAutomine', {
    params: [required('enabled', 'bool', boolOf)],
    handler: anvil(setAutomine),
    aliases: ['anvil_setAutomine', 'hardhat_setAutomine'],
    doc: 'A block as soon as txs arrive (on) or only on interval / demand (off).',
  }),
  route('anvil_getAutomine', { params: [], handler: getAutomine, aliases: ['hardhat_getAutomine'], doc: 'Whether automine is on.' }),
  route('evm_setIntervalMining', {
    params: [required('interval', 'Uint', intervalOf)],
    handler: anvil(setIntervalMining),
    aliases: ['hardhat_setIntervalMining'],
    doc: 'Hardhat’s: a block every `interval` **milliseconds** (0 = off; `[min, max]` uses the middle), when automine is off.',
  }),
  route('anvil_setIntervalMining', {
    params: [required('interval', 'Uint', uintLike)],
    handler: anvil(setIntervalSeconds),
    doc: 'Anvil’s: a block every `interval` **seconds** (0 = off), when automine is off.',
  }),
  route('anvil_getIntervalMining', { params: [], handler: getIntervalSeconds, doc: 'The mining interval in seconds (0 = off).' }),
  route('evm_setBlockGasLimit', {
    params: [required('gasLimit', 'Uint64', bigLike)],
    handler: hardhat(setBlockGasLimit),
    aliases: ['anvil_setBlockGasLimit', 'hardhat_setBlockGasLimit'],
    doc: 'Block gas limit (consensus `max_gas`) of the next blocks.',
  }),
  ...anvilAndHardhat('setBalance', {
    params: [address, required('balance', 'Big', bigLike)],
    handler: setBalance,
    doc: 'Sets a balance in the latest state, at once.',
  }),
  ...anvilAndHardhat('setCode', {
    params: [address, required('code', 'Bytes', bytesOf())],
    handler: setCode,
    doc: 'Sets an account’s code in the latest state.',
  }),
  ...anvilAndHardhat('setNonce', {
    params: [address, required('nonce', 'Uint64', bigLike)],
    handler: setNonce,
    aliases: ['evm_setAccountNonce'],
    doc: 'Sets an account’s nonce in the latest state.',
  }),
  route('anvil_setStorageAt', {
    params: [address, required('slot', 'Hash', slotOf), required('value', 'Hash', slotOf)],
    handler: hardhat(setStorageAt),
    aliases: ['hardhat_setStorageAt'],
    doc: 'Sets one storage word in the latest state; answers `true`.',
  }),
  route('anvil_setCoinbase', { params: [address], handler: anvil(setCoinbase), aliases: ['hardhat_setCoinbase'], doc: 'EVM coinbase of the next blocks.' }),
  route('anvil_setMinGasPrice', {
    params: [required('gasPrice', 'Big', bigLike)],
    handler: anvil(setMinGasPrice),
    aliases: ['hardhat_setMinGasPrice'],
    doc: 'Minimum gas price CheckTx asks for (and base fee floor).',
  }),
  ...anvilAndHardhat('impersonateAccount', {
    params: [address],
    handler: impersonate,
    doc: 'Txs from this address are accepted without its key (eth_sendTransaction).',
  }),
  ...anvilAndHardhat('stopImpersonatingAccount', { params: [address], handler: stopImpersonating, doc: 'Ends an impersonation.' }),
  route('anvil_autoImpersonateAccount', {
    params: [required('enabled', 'bool', boolOf)],
    handler: anvil(autoImpersonate),
    doc: 'Impersonates every sender while on.',
  }),
  route('anvil_dropTransaction', {
    params: [required('hash', 'Hash', hashOf())],
    handler: (env: EthEnv, [hash]: [Uint8Array]) => (dropTransaction(env, [hash]) ? data(hash) : null),
    doc: 'Removes a pending tx; returns its hash, or `null` if it was not pending.',
  }),
  route('hardhat_dropTransaction', {
    params: [required('hash', 'Hash', hashOf())],
    handler: dropTransaction,
    doc: 'Removes a pending tx; `true` if it was pending.',
  }),
  route('anvil_dropAllTransactions', { params: [], handler: anvil(dropAll), aliases: ['hardhat_dropAllTransactions'], doc: 'Empties the mempool.' }),
  route('anvil_dumpState', {
    params: [],
    handler: dumpState,
    aliases: ['hardhat_dumpState'],
    doc: 'The whole node db (blocks, receipts, logs, indexes, state) as 0x-hex of gzip.',
  }),
  route('anvil_setBlockTimestampInterval', {
    params: [required('seconds', 'Uint', uintLike)],
    handler: anvil(setBlockTimestampInterval),
    doc: 'Each next block this many seconds after the previous one, whatever the clock.',
  }),
  route('hardhat_setBlockTimestampInterval', {
    params: [required('milliseconds', 'Uint', uintLike)],
    handler: hardhat(setBlockTimestampIntervalMs),
    doc: 'As `anvil_setBlockTimestampInterval`, in milliseconds (as viem’s hardhat mode sends it); answers `true`.',
  }),
  route('anvil_removeBlockTimestampInterval', {
    params: [],
    handler: removeBlockTimestampInterval,
    aliases: ['hardhat_removeBlockTimestampInterval'],
    doc: 'Block times follow the clock again; `true` if an interval was set.',
  }),
  ...anvilAndHardhat('setNextBlockBaseFeePerGas', {
    params: [required('baseFee', 'Big', bigLike)],
    handler: setNextBlockBaseFee,
    doc: 'Base fee of the next block; the blocks after follow EIP-1559 from it.',
  }),
  ...anvilAndHardhat('setLoggingEnabled', {
    params: [required('enabled', 'bool', boolOf)],
    handler: setLoggingEnabled,
    doc: 'Turns the node’s log output (and the CLI’s tx and block lines) off and on.',
  }),
  route('anvil_setRpcUrl', {
    params: [required('url', 'string', stringOf)],
    handler: setRpcUrl,
    aliases: ['hardhat_setRpcUrl'],
    doc: 'Answers an error: there is no fork to point elsewhere.',
  }),
  route('hardhat_metadata', {
    params: [],
    handler: hardhatMetadata,
    doc: 'clientVersion, chainId, instanceId (new at each start and reset), latest block number and hash, forkedNetwork (null).',
  }),
  route('anvil_metadata', { params: [], handler: anvilMetadata, doc: 'As `hardhat_metadata`, plus `snapshots` (id → [block number, block hash]).' }),
  route('chainlet_setValidatorOnline', {
    params: [required('index', 'Uint', uintLike), required('online', 'bool', boolOf)],
    handler: guarded((env: EthEnv, [index, online]: [number, boolean]) => {
      dev(env).setValidatorOnline(index, online);
      return true;
    }),
    doc: 'Takes an in-process validator (genesis order) offline (`false`) or back (`true`); devnet only. Answers `true`.',
  }),
  route('chainlet_pauseRelayer', {
    params: [],
    handler: guarded(async (env: EthEnv) => (relayerOf(env).pause(), relayerOf(env).status())),
    doc: 'Stops the network’s IBC relayer (sent packets stay pending; timeouts can pass). Answers its status.',
  }),
  route('chainlet_resumeRelayer', {
    params: [],
    handler: guarded(async (env: EthEnv) => (relayerOf(env).resume(), relayerOf(env).status())),
    doc: 'Relays again, starting with the backlog. Answers its status.',
  }),
  route('chainlet_flushRelayer', {
    params: [],
    handler: guarded(async (env: EthEnv) => {
      await relayerOf(env).flush();
      return relayerOf(env).status();
    }),
    doc: 'Relays everything pending now (also when paused) and answers when done, with the status.',
  }),
  route('chainlet_relayerStatus', {
    params: [],
    handler: guarded(async (env: EthEnv) => relayerOf(env).status()),
    doc: 'The relayer’s paths (chains, clients, connections, channels), whether it is paused, and the packets it has in flight.',
  }),
  route('anvil_nodeInfo', {
    params: [],
    handler: anvilNodeInfo,
    doc: 'Current block, hardfork, tx order, base fee, chain id, gas limit and price, fork config (all null).',
  }),
  route('hardhat_reset', {
    params: [optional('options', 'ResetOptions', anyOf)],
    handler: hardhat(reset),
    doc: 'Back to the starting chain (genesis, dev accounts, first block); empty mempool, no snapshots. A fork answers an error.',
  }),
  route('anvil_reset', { params: [optional('options', 'Forking', anyOf)], handler: anvil(reset), doc: 'As `hardhat_reset`; answers `null`.' }),
  route('anvil_loadState', {
    params: [required('state', 'Bytes', bytesOf())],
    handler: loadState,
    aliases: ['hardhat_loadState'],
    doc: 'Replaces the node’s chain and state with a dump of the same chain; snapshots are dropped.',
  }),
] as const;
