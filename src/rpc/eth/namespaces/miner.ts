/**
 * The miner namespace (geth's; opt-in through `api`): block production paused and resumed (the
 * consensus engine's mode), and the coinbase, minimum gas price and gas limit of the next blocks.
 * Cosmos EVM refuses start/stop/setGasLimit; here they act, as a devnet user expects.
 */
import type { Address } from '@ethereumjs/util';
import type { EthEnv } from '../env.js';
import { addressOf, bigOf, optional, required, uint64Of, anyOf } from '../params.js';
import { route } from '../route.js';
import { guarded } from './namespace-params.js';
import { servicesOf } from './services.js';

const dev = (env: EthEnv) => servicesOf(env).devnet;

export const start = (env: EthEnv) => {
  dev(env).mining.start();
  return null;
};

export const stop = (env: EthEnv) => {
  dev(env).mining.stop();
  return null;
};

export const setEtherbase = (env: EthEnv, [a]: [Address]) => {
  dev(env).setCoinbase(a);
  return true;
};

export const setGasPrice = guarded(async (env: EthEnv, [wei]: [bigint]) => {
  await dev(env).setMinGasPrice(wei);
  return true;
});

export const setGasLimit = guarded(async (env: EthEnv, [gas]: [bigint]) => {
  await dev(env).setBlockGasLimit(gas);
  return true;
});

export const MINER_ROUTES = [
  route('miner_start', {
    params: [optional('threads', 'int', anyOf)],
    handler: start,
    doc: 'Resumes block production in the mode set before `miner_stop` (automine / interval).',
  }),
  route('miner_stop', { params: [], handler: stop, doc: 'Pauses block production (manual mode); evm_mine still mines.' }),
  route('miner_setEtherbase', { params: [required('address', 'Address', addressOf())], handler: setEtherbase, doc: 'EVM coinbase of the next blocks.' }),
  route('miner_setGasPrice', {
    params: [required('gasPrice', 'Big', bigOf())],
    handler: setGasPrice,
    doc: 'Minimum gas price of the mempool (CheckTx) and base fee floor.',
  }),
  route('miner_setGasLimit', {
    params: [required('gasLimit', 'Uint64', uint64Of())],
    handler: setGasLimit,
    doc: 'Block gas limit (consensus `max_gas`) of the next blocks.',
  }),
] as const;
