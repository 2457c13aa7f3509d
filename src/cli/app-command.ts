/** `chainlet app --home DIR [--proxy-app ADDR]`: serve the home's EVM application to a real CometBFT. */
import type { Command } from 'commander';
import { APP_KINDS, DEFAULT_PROXY_APP, type AppKind } from '../node/abci-app-kinds.js';

export function registerAppCommand(program: Command, fail: (msg: string) => never): void {
  program
    .command('app')
    .description('serve the EVM application over the ABCI socket to a CometBFT node (cometbft node --proxy_app …)')
    .requiredOption('--home <dir>', 'home folder made by `chainlet init` (the app state goes to <home>/data/app.db)')
    .option('--proxy-app <addr>', 'tcp://host:port or unix:///path, as CometBFT’s proxy_app', DEFAULT_PROXY_APP)
    .option('--app <name>', `the application: ${APP_KINDS.join(' (default), ')} (CometBFT's kvstore example, state in <home>/data/kvstore.db)`, 'evm')
    .option('--max-message-bytes <n>', 'largest ABCI message accepted (CometBFT’s default: 100 MiB)', '104857600')
    .option('--max-queue-bytes <n>', 'bytes of requests a connection may queue for the app before it stops being read', String(4 * 1024 * 1024))
    .action(async (o: { home: string; proxyApp: string; maxMessageBytes: string; maxQueueBytes: string; app: string }) => {
      if (!(APP_KINDS as readonly string[]).includes(o.app)) fail(`invalid value "${o.app}" for --app: expected one of ${APP_KINDS.join(', ')}`);
      const max = Number(o.maxMessageBytes);
      if (!Number.isSafeInteger(max) || max < 1) fail(`invalid value "${o.maxMessageBytes}" for --max-message-bytes: expected a positive integer`);
      const queue = Number(o.maxQueueBytes);
      if (!/^\d+$/.test(o.maxQueueBytes) || !Number.isSafeInteger(queue))
        fail(`invalid value "${o.maxQueueBytes}" for --max-queue-bytes: expected a non-negative integer`);
      // The ABCI socket server and its codecs load only for this command.
      const { serveAppOverSocket } = await import('../node/abci-app.js');
      const server = await serveAppOverSocket({ home: o.home, app: o.app as AppKind, address: o.proxyApp, maxMessageBytes: max, maxQueueBytes: queue }).catch(
        (err: Error) => fail(err.message),
      );
      console.log(`chainlet app: the ${o.app} app's ABCI server on ${server.address} (home ${o.home}). Ctrl-C to stop.`);
      const stop = async () => {
        await server.stop();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}
