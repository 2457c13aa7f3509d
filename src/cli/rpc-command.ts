/**
 * `chainlet rpc --comet URL --home DIR`: the home's EVM app served to a real CometBFT over the ABCI
 * socket, with the Ethereum JSON-RPC and the routing API beside it in the same process (as a Cosmos
 * EVM node runs them). Every `[json-rpc]` / `[routing]` flag of `chainlet start` applies.
 */
import type { Command } from 'commander';
import { DEFAULT_PROXY_APP } from '../node/abci-app-kinds.js';
import { addNodeOptions, planFromOptions } from './node-options.js';
import { describeStartError } from './start-errors.js';
import { resolveConfig } from '../config/resolve.js';

export function registerRpcCommand(program: Command, fail: (msg: string) => never): void {
  addNodeOptions(
    program.command('rpc').description('serve the app to a CometBFT node (its proxy_app) and the Ethereum JSON-RPC and routing API in front of it'),
  )
    .requiredOption('--comet <url>', 'the CometBFT RPC, e.g. http://127.0.0.1:26657')
    .option('--proxy-app <addr>', 'where CometBFT connects to the app: tcp://host:port or unix:///path (its proxy_app)', DEFAULT_PROXY_APP)
    .option('--max-message-bytes <n>', 'largest ABCI message accepted (CometBFT’s default: 100 MiB)', '104857600')
    .option('--max-queue-bytes <n>', 'bytes of requests an ABCI connection may queue for the app before it stops being read', String(4 * 1024 * 1024))
    .action(async (o: Record<string, string | boolean | undefined>) => {
      const plan = (() => {
        try {
          return planFromOptions(o);
        } catch (err) {
          return fail((err as Error).message);
        }
      })();
      if (!plan.home) fail('chainlet rpc needs --home (a home made by `chainlet init`: the app state is <home>/data/app.db)');
      const comet = String(o['comet']);
      if (!/^https?:\/\/[^/]+/.test(comet)) fail(`invalid value "${comet}" for --comet: expected the CometBFT RPC URL, e.g. http://127.0.0.1:26657`);
      const max = Number(o['maxMessageBytes']);
      if (!Number.isSafeInteger(max) || max < 1) fail(`invalid value "${String(o['maxMessageBytes'])}" for --max-message-bytes: expected a positive integer`);
      const queue = Number(o['maxQueueBytes']);
      if (!/^\d+$/.test(String(o['maxQueueBytes'])) || !Number.isSafeInteger(queue))
        fail(`invalid value "${String(o['maxQueueBytes'])}" for --max-queue-bytes: expected a non-negative integer`);
      // The front (ABCI server, CometBFT RPC client) loads only for this command.
      const { startCometFront } = await import('../node/comet-front/front.js');
      const front = await startCometFront({
        home: plan.home,
        comet,
        proxyApp: String(o['proxyApp']),
        maxMessageBytes: max,
        maxQueueBytes: queue,
        config: plan.overrides,
      }).catch((err: Error) => fail(describeStartError(err, resolveConfig(plan.home, plan.overrides))));
      const shutdown = async () => {
        await front.stop();
        process.exit(0);
      };
      process.once('SIGINT', () => void shutdown());
      process.once('SIGTERM', () => void shutdown());
      if (!plan.silent) {
        console.log(`chainlet rpc (home ${plan.home}), in front of CometBFT at ${comet}`);
        console.log(`  ABCI app (proxy_app)  ${front.abciAddress}`);
        if (front.urls.jsonRpc) console.log(`  Ethereum JSON-RPC     ${front.urls.jsonRpc}   ${front.urls.jsonRpcWs}`);
        if (front.urls.routing) console.log(`  routing API           ${front.urls.routing}`);
        console.log('Ctrl-C to stop.');
      }
    });
}
