/** bank's MsgSend and MsgMultiSend: the native denom on the EVM accounts, other denoms (IBC vouchers) in the IBC store. */
import { Address } from '@ethereumjs/util';
import type { AbciEvent } from '../../abci/types.js';
import { storedBalance } from '../../ibc/bank.js';
import { hostKeys } from '../../ibc/keys.js';
import { CosmosTxError, SdkCode } from '../../sdk/errors.js';
import { FEE_COLLECTOR } from './auth-registry.js';
import { withBalance } from './cosmos-accounts.js';
import type { CosmosChainEnv, CosmosState } from './cosmos-exec.js';
import { BALANCE_BYTES, GAS, type GasMeter } from './cosmos-gas.js';
import { coinsText, type Coin } from './cosmos-tx.js';

/** Moves `total` from `from` to the outputs, with bank's checks, gas and events. */
export async function move(
  state: CosmosState,
  env: CosmosChainEnv,
  meter: GasMeter,
  from: Uint8Array,
  total: Coin[],
  outputs: { to: Uint8Array; coins: Coin[] }[],
  events: AbciEvent[],
  bech: (a: Uint8Array) => string,
): Promise<void> {
  const fromAddr = new Address(Uint8Array.from(from));
  meter.consume(GAS.readFlat + GAS.readPerByte * BALANCE_BYTES, 'ReadFlat');
  const sender = await state.getAccount(fromAddr);
  const store = env.ibc?.store;
  // Other denoms (IBC vouchers) live in the IBC store's bank keys; without one, nobody holds any.
  const other = (a: Uint8Array, denom: string) => (store ? storedBalance(store, a, denom) : 0n);
  const setOther = (a: Uint8Array, denom: string, v: bigint) => {
    const k = hostKeys.balance(Buffer.from(a).toString('hex'), denom);
    if (v === 0n) store!.delete(k);
    else store!.set(k, v.toString());
  };
  let spend = 0n;
  const spent = new Map<string, bigint>();
  for (const c of total) {
    const have = c.denom === env.denom ? (sender?.balance ?? 0n) : other(from, c.denom);
    const need = c.amount + (c.denom === env.denom ? spend : (spent.get(c.denom) ?? 0n));
    if (have < need)
      throw new CosmosTxError(SdkCode.InsufficientFunds, `spendable balance ${have}${c.denom} is smaller than ${c.amount}${c.denom}: insufficient funds`);
    if (c.denom === env.denom) spend += c.amount;
    else spent.set(c.denom, need);
  }
  meter.consume(GAS.writeFlat + GAS.writePerByte * BALANCE_BYTES, 'WriteFlat');
  await state.putAccount(fromAddr, withBalance(sender, (sender?.balance ?? 0n) - spend));
  for (const [denom, v] of spent) setOther(from, denom, other(from, denom) - v);
  events.push(ev('coin_spent', ['spender', bech(from)], ['amount', coinsText(total)]));
  for (const o of outputs) {
    if (Buffer.compare(Buffer.from(o.to), FEE_COLLECTOR) === 0)
      throw new CosmosTxError(SdkCode.Unauthorized, `${bech(o.to)} is not allowed to receive funds: unauthorized`);
    const toAddr = new Address(Uint8Array.from(o.to));
    meter.consume(GAS.hasFlat + GAS.readFlat + GAS.readPerByte * BALANCE_BYTES + GAS.writeFlat + GAS.writePerByte * BALANCE_BYTES, 'WriteFlat');
    const recipient = await state.getAccount(toAddr);
    const add = o.coins.filter((c) => c.denom === env.denom).reduce((a, c) => a + c.amount, 0n);
    await state.putAccount(toAddr, withBalance(recipient, (recipient?.balance ?? 0n) + add));
    for (const c of o.coins) if (c.denom !== env.denom) setOther(o.to, c.denom, other(o.to, c.denom) + c.amount);
    events.push(ev('coin_received', ['receiver', bech(o.to)], ['amount', coinsText(o.coins)]));
    events.push(
      outputs.length === 1
        ? ev('transfer', ['recipient', bech(o.to)], ['sender', bech(from)], ['amount', coinsText(o.coins)])
        : ev('transfer', ['recipient', bech(o.to)], ['amount', coinsText(o.coins)]),
    );
  }
}

/** An ABCI event with every attribute indexed. */
export function ev(type: string, ...attrs: [string, string][]): AbciEvent {
  return { type, attributes: attrs.map(([key, value]) => ({ key, value, index: true })) };
}
