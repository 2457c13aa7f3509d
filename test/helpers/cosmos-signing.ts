/**
 * What tests sign Cosmos txs with: the dev mnemonic's Cosmos clients and an ICS-20 MsgTransfer as
 * cosmjs sends it (the hub's `uhub` over `channel-0` unless told otherwise).
 */
import { DirectEthSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient } from '@cosmjs/stargate';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';

/** The EVM chain's native denom. */
export const EVM_DENOM = 'achainlet';

/** A signing client of the EVM chain's first dev account (eth_secp256k1 keys, bech32 `chainlet`), over its CometBFT RPC. */
export async function evmCosmosClient(rpcUrl: string): Promise<{ client: SigningStargateClient; from: string }> {
  const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'chainlet' });
  const [acc] = await wallet.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(rpcUrl, wallet, {
    gasPrice: GasPrice.fromString(`2000000000${EVM_DENOM}`),
    broadcastPollIntervalMs: 50,
  });
  return { client, from: acc!.address };
}

export interface TransferMsgOptions {
  sender: string;
  receiver: string;
  amount: string;
  denom?: string;
  channel?: string;
  timeoutHeight?: { revisionNumber: bigint; revisionHeight: bigint };
  /** Unix nanoseconds; 0 for none. Default: ten minutes from now. */
  timeoutTimestampNs?: bigint;
}

/** A `/ibc.applications.transfer.v1.MsgTransfer` EncodeObject. */
export function transferMsg(o: TransferMsgOptions) {
  return {
    typeUrl: '/ibc.applications.transfer.v1.MsgTransfer',
    value: {
      sourcePort: 'transfer',
      sourceChannel: o.channel ?? 'channel-0',
      token: { denom: o.denom ?? 'uhub', amount: o.amount },
      sender: o.sender,
      receiver: o.receiver,
      timeoutHeight: o.timeoutHeight ?? { revisionNumber: 0n, revisionHeight: 0n },
      timeoutTimestamp: o.timeoutTimestampNs ?? BigInt(Date.now() + 600_000) * 1_000_000n,
      memo: '',
    },
  };
}
