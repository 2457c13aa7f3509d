/**
 * The EVM app's ABCI Query routes, in the router's table (src/sdk/query-router.ts, beside the Cosmos
 * SDK gRPC paths such as `/cosmos.bank.v1beta1.Query/Balance`). A route owns a path and takes the
 * rest of the path as arguments:
 *
 *   /evm/account/<addr>           {"address","nonce","balance","code_hash","storage_root"}
 *   /evm/balance/<addr>           {"balance":"<decimal>","denom":"<denom>"}
 *   /evm/code/<addr>              0x… code hex
 *   /evm/storage/<addr>/<slot>    0x… 32-byte value hex
 *
 * `<addr>` is 0x hex or bech32 with the chain prefix, or comes as 20 bytes in `data`. Values are
 * UTF-8. `height` 0 means the latest committed height; older heights read historical state.
 */
import type { Address } from '@ethereumjs/util';
import type { RequestQuery } from '../../abci/types.js';
import { QueryError } from '../../sdk/errors.js';
import type { QueryContext, QueryRoute } from '../../sdk/query-router.js';
import type { CosmosQueryContext } from '../cosmos/cosmos-queries.js';
import { addressFromBytes, parseAccountAddress } from '../address.js';
import { toPrefixedHex as hex } from '../../crypto/encoding.js';

/** The EVM app's and the hub's query context: the router's, with the Cosmos face's parts. */
export type AppQueryContext = QueryContext & { cosmos?: CosmosQueryContext };

const SDK_INVALID_REQUEST = 18;

const utf8 = (s: string) => new TextEncoder().encode(s);

function addressArg(ctx: QueryContext, args: string[], req: RequestQuery): Address {
  if (args.length > 0 && args[0] !== '') return parseAccountAddress(args[0]!, ctx.bech32Prefix);
  if (req.data.length > 0) return addressFromBytes(req.data);
  throw new QueryError(SDK_INVALID_REQUEST, 'sdk', 'address cannot be empty: invalid request');
}

export const QUERY_ROUTES: readonly QueryRoute[] = Object.freeze([
  {
    path: '/evm/account',
    async handle(ctx, state, args, req) {
      const address = addressArg(ctx, args, req);
      const account = await state.getAccount(address);
      return utf8(
        JSON.stringify({
          address: address.toString(),
          nonce: (account?.nonce ?? 0n).toString(),
          balance: (account?.balance ?? 0n).toString(),
          code_hash: hex(account?.codeHash ?? EMPTY_CODE_HASH),
          storage_root: hex(account?.storageRoot ?? EMPTY_ROOT),
        }),
      );
    },
  },
  {
    path: '/evm/balance',
    async handle(ctx, state, args, req) {
      const account = await state.getAccount(addressArg(ctx, args, req));
      return utf8(JSON.stringify({ balance: (account?.balance ?? 0n).toString(), denom: ctx.denom }));
    },
  },
  {
    path: '/evm/code',
    async handle(ctx, state, args, req) {
      return utf8(hex(await state.getCode(addressArg(ctx, args, req))));
    },
  },
  {
    path: '/evm/storage',
    async handle(ctx, state, args, req) {
      const address = addressArg(ctx, args, req);
      const slotArg = args[1];
      if (slotArg === undefined || !/^0x[0-9a-fA-F]{1,64}$/.test(slotArg)) {
        throw new QueryError(SDK_INVALID_REQUEST, 'sdk', 'storage slot must be 0x hex of at most 32 bytes: invalid request');
      }
      const slot = Buffer.from(slotArg.slice(2).padStart(64, '0'), 'hex');
      const value = await state.getStorage(address, slot);
      const out = new Uint8Array(32);
      out.set(value, 32 - value.length);
      return utf8(hex(out));
    },
  },
]);

const EMPTY_CODE_HASH = Buffer.from('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470', 'hex');
const EMPTY_ROOT = Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex');
