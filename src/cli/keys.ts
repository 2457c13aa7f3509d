/**
 * `chainlet keys create | list | delete`: API keys of the routing API, kept in
 * `<home>/config/api_keys.json` as salted hashes. `create` prints the key once; it cannot be
 * shown again. A running node picks up changes to the file within a second.
 */
import type { Command } from 'commander';
import { createApiKey, openApiKeyStore, type ApiKeyInfo } from '../rpc/routing/api-keys.js';

interface HomeOpts {
  home: string;
  json?: boolean;
}

function run(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    console.error(`error: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}

function describe(k: ApiKeyInfo): string {
  return `${k.prefix}  ${k.created_at}  ${k.name}`;
}

export function registerKeysCommand(program: Command): Command {
  const keys = program.command('keys').description('manage API keys of the routing API (stored as salted hashes under <home>/config)');

  keys
    .command('create')
    .description('create an API key and print it (shown only this once)')
    .requiredOption('--name <name>', 'a name to recognise the key by (unique)')
    .requiredOption('--home <dir>', 'home folder made by `chainlet init`')
    .option('--json', 'print {key, id, name, prefix, created_at} as JSON', false)
    .action((o: HomeOpts & { name: string }) =>
      run(() => {
        const store = openApiKeyStore(o.home);
        const { key, info } = createApiKey(store, o.name);
        if (o.json) {
          console.log(JSON.stringify({ key, ...info }));
          return;
        }
        console.log(`created API key "${info.name}" (id ${info.id}) in ${store.path}`);
        console.log('');
        console.log(`  ${key}`);
        console.log('');
        console.log('Store it now: it is not shown again (only a salted hash is kept).');
        console.log('Send it in the `authorization` header of routing API requests.');
      }),
    );

  keys
    .command('list')
    .description('list API keys (prefix, creation time, name)')
    .requiredOption('--home <dir>', 'home folder made by `chainlet init`')
    .option('--json', 'print as JSON', false)
    .action((o: HomeOpts) =>
      run(() => {
        const list = openApiKeyStore(o.home).list();
        if (o.json) console.log(JSON.stringify(list));
        else if (list.length === 0) console.log('no API keys');
        else for (const k of list) console.log(describe(k));
      }),
    );

  keys
    .command('delete')
    .description('delete an API key by id, prefix or name')
    .argument('<key>', 'id, prefix (clk_…) or name of the key')
    .requiredOption('--home <dir>', 'home folder made by `chainlet init`')
    .action((which: string, o: HomeOpts) =>
      run(() => {
        if (!openApiKeyStore(o.home).remove(which)) throw new Error(`no API key matches "${which}"`);
        console.log(`deleted API key ${which}`);
      }),
    );

  return keys;
}
