/**
 * The admin namespace (geth's; Cosmos EVM has none, so it is opt-in through `api`): the node's
 * description, no peers (one process is the whole network), its data folder, and the eth
 * listeners stopped and started again. A stop requested over the listener being stopped answers
 * first, then stops (the response must leave before the socket closes).
 */
import { clientVersion, type EthEnv } from '../env.js';
import { ServerError } from '../errors.js';
import { anyOf, optional, stringOf } from '../params.js';
import { route } from '../route.js';
import type { EthListenerControl } from './listener-control.js';
import { guarded, uintLike } from './namespace-params.js';
import { servicesOf } from './services.js';

const LISTEN_PORT = 26656;

function listeners(env: EthEnv): EthListenerControl {
  const l = servicesOf(env).listeners;
  if (l === undefined) throw new ServerError('no RPC listeners to control in this process (in-process provider)');
  return l;
}

export async function nodeInfo(env: EthEnv): Promise<Record<string, unknown>> {
  const n = servicesOf(env).node;
  const [genesis, head] = await Promise.all([n.genesisHash(), n.headHash()]);
  return {
    id: n.id,
    name: clientVersion(),
    enode: `enode://${n.id}@127.0.0.1:${LISTEN_PORT}?discport=0`,
    ip: '127.0.0.1',
    ports: { discovery: 0, listener: LISTEN_PORT },
    listenAddr: `127.0.0.1:${LISTEN_PORT}`,
    protocols: {
      eth: { network: n.evmChainId, genesis: genesis ?? null, head: head ?? null, config: { chainId: n.evmChainId }, height: n.height() },
      cometbft: { network: n.chainId, moniker: n.moniker, rpc: n.rpcAddress },
    },
  };
}

export const peers = () => [];

export const datadir = (env: EthEnv) => servicesOf(env).node.datadir;

/** Answers first, then runs `fn` (so a listener can stop itself). */
function afterReply(env: EthEnv, fn: () => Promise<unknown>): void {
  setImmediate(() => {
    fn().catch((err: unknown) => env.logger.error({ err }, 'admin: listener change failed'));
  });
}

export const startHTTP = guarded(async (env: EthEnv, [host, port]: [string | undefined, number | undefined, ...unknown[]]) => {
  await listeners(env).startHttp(host, port);
  return true;
});

export const stopHTTP = (env: EthEnv) => {
  const l = listeners(env);
  if (!l.http().running) return true;
  afterReply(env, () => l.stopHttp());
  return true;
};

export const startWS = guarded(async (env: EthEnv, [host, port]: [string | undefined, number | undefined, ...unknown[]]) => {
  await listeners(env).startWs(host, port);
  return true;
});

export const stopWS = (env: EthEnv) => {
  const l = listeners(env);
  if (!l.ws().running) return true;
  afterReply(env, () => l.stopWs());
  return true;
};

const host = optional('host', 'string', stringOf);
const port = optional('port', 'int', uintLike);
const extra = optional('options', 'any', anyOf);

export const ADMIN_ROUTES = [
  route('admin_nodeInfo', { params: [], handler: nodeInfo, doc: 'This node: id, client name, chain ids, genesis and head hashes.' }),
  route('admin_peers', { params: [], handler: peers, doc: 'Always `[]`: the validators run in this process.' }),
  route('admin_datadir', { params: [], handler: datadir, doc: 'The home folder (`""` for an in-memory node).' }),
  route('admin_startHTTP', {
    params: [host, port, extra, extra, extra],
    handler: startHTTP,
    aliases: ['admin_startRPC'],
    doc: 'Starts the eth HTTP listener again (host/port default to the configured ones).',
  }),
  route('admin_stopHTTP', { params: [], handler: stopHTTP, aliases: ['admin_stopRPC'], doc: 'Stops the eth HTTP listener (after answering).' }),
  route('admin_startWS', { params: [host, port, extra, extra], handler: startWS, doc: 'Starts the eth WebSocket listener again.' }),
  route('admin_stopWS', { params: [], handler: stopWS, doc: 'Stops the eth WebSocket listener (after answering).' }),
] as const;
