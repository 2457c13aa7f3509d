/** `chainlet app --home DIR [--proxy-app ADDR]`: serve the home's EVM application to a real CometBFT. */
import type { Command } from 'commander';
import { DEFAULT_PROXY_APP, serveAppOverSocket } from '../node/abci-app.js';

export function registerAppCommand(program: Command, fail: (msg: string) => never): void {
  program
    .command('app')
    .description('serve the EVM application over the ABCI socket to a CometBFT node (cometbft node --proxy_app …)')
    .requiredOption('--home <dir>', 'home folder made by `chainlet init` (the app state goes to <home>/data/app.db)')
    .option('--proxy-app <addr>', 'tcp://host:port or unix:///path, as CometBFT’s proxy_app', DEFAULT_PROXY_APP)
    .option('--max-message-bytes <n>', 'largest ABCI message accepted (CometBFT’s default: 100 MiB)', '104857600')
    .action(async (o: { home: string; proxyApp: string; maxMessageBytes: string }) => {
      const max = Number(o.maxMessageBytes);
      if (!Number.isSafeInteger(max) || max < 1) fail(`invalid value "${o.maxMessageBytes}" for --max-message-bytes: expected a positive integer`);
      const server = await serveAppOverSocket({ home: o.home, address: o.proxyApp, maxMessageBytes: max }).catch((err: Error) => fail(err.message));
      console.log(`chainlet app: ABCI server on ${server.address} (home ${o.home}). Ctrl-C to stop.`);
      const stop = async () => {
        await server.stop();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}
