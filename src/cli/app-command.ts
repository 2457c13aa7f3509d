/** `chainlet app --home DIR [--proxy-app ADDR] [--app KIND]`: serve the home's application of a chain kind to a real CometBFT. */
import type { Command } from 'commander';
import { ChainRegistry } from '../chains/registry.js';
import { DEFAULT_PROXY_APP } from '../node/abci-app-kinds.js';

export function registerAppCommand(program: Command, fail: (msg: string) => never): void {
  // The kinds whose application can run alone behind a CometBFT (src/chains/<kind>: `socketApp`); the first is the default.
  const kinds = new ChainRegistry().list().filter((k) => k.socketApp);
  const names = kinds.map((k) => k.name);
  program
    .command('app')
    .description('serve the EVM application over the ABCI socket to a CometBFT node (cometbft node --proxy_app …)')
    .requiredOption('--home <dir>', 'home folder made by `chainlet init` (the app state goes to <home>/data/app.db)')
    .option('--proxy-app <addr>', 'tcp://host:port or unix:///path, as CometBFT’s proxy_app', DEFAULT_PROXY_APP)
    .option(
      '--app <name>',
      `the application: ${kinds.map((k, i) => `${k.name}${i === 0 ? ' (default)' : ''}${k.socketApp!.note ? ` (${k.socketApp!.note})` : ''}`).join(', ')}`,
      names[0],
    )
    .option('--max-message-bytes <n>', 'largest ABCI message accepted (CometBFT’s default: 100 MiB)', '104857600')
    .option('--max-queue-bytes <n>', 'bytes of requests a connection may queue for the app before it stops being read', String(4 * 1024 * 1024))
    .action(async (o: { home: string; proxyApp: string; maxMessageBytes: string; maxQueueBytes: string; app: string }) => {
      const kind = kinds.find((k) => k.name === o.app);
      if (!kind) fail(`invalid value "${o.app}" for --app: expected one of ${names.join(', ')}`);
      const max = Number(o.maxMessageBytes);
      if (!Number.isSafeInteger(max) || max < 1) fail(`invalid value "${o.maxMessageBytes}" for --max-message-bytes: expected a positive integer`);
      const queue = Number(o.maxQueueBytes);
      if (!/^\d+$/.test(o.maxQueueBytes) || !Number.isSafeInteger(queue))
        fail(`invalid value "${o.maxQueueBytes}" for --max-queue-bytes: expected a non-negative integer`);
      // The ABCI socket server and its codecs load only for this command.
      const { serveAppOverSocket } = await import('../node/abci-app.js');
      const server = await serveAppOverSocket({
        home: o.home,
        open: (home, config, logger) => kind.socketApp!.open(home, config, logger),
        address: o.proxyApp,
        maxMessageBytes: max,
        maxQueueBytes: queue,
      }).catch((err: Error) => fail(err.message));
      console.log(`chainlet app: the ${o.app} app's ABCI server on ${server.address} (home ${o.home}). Ctrl-C to stop.`);
      const stop = async () => {
        await server.stop();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}
