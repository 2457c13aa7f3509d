/** 03-connection: the four-step connection handshake, each counterparty step verified by proof. */
import { ConnectionEnd, State as ConnState } from 'cosmjs-types/ibc/core/connection/v1/connection';
import type { AbciEvent } from '../abci/types.js';
import { getConnection, putConnection } from './channel-ends.js';
import { addClientConnection, requireClient, verifyState } from './client-exec.js';
import { err, nextId, type IbcExecContext } from './exec-context.js';
import { connectionEvent } from './ibc-events.js';
import { COMMITMENT_PREFIX, hostKeys } from './keys.js';
import type { IbcMsg } from './msgs.js';

type ConnectionMsg = Extract<IbcMsg, { kind: 'connOpenInit' | 'connOpenTry' | 'connOpenAck' | 'connOpenConfirm' }>;

export function runConnectionHandshake(msg: ConnectionMsg, ctx: IbcExecContext, events: AbciEvent[]): void {
  switch (msg.kind) {
    case 'connOpenInit': {
      const id = nextId(ctx, hostKeys.nextConnectionSequence, 'connection');
      requireClient(ctx, msg.m.clientId);
      const end: ConnectionEnd = {
        clientId: msg.m.clientId,
        versions: [msg.m.version ?? { identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] }],
        state: ConnState.STATE_INIT,
        counterparty: msg.m.counterparty,
        delayPeriod: msg.m.delayPeriod,
      };
      putConnection(ctx, id, end);
      addClientConnection(ctx, msg.m.clientId, id);
      events.push(connectionEvent('connection_open_init', id, end));
      break;
    }
    case 'connOpenTry': {
      requireClient(ctx, msg.m.clientId);
      const id = nextId(ctx, hostKeys.nextConnectionSequence, 'connection');
      const end: ConnectionEnd = {
        clientId: msg.m.clientId,
        versions: msg.m.counterpartyVersions.slice(0, 1),
        state: ConnState.STATE_TRYOPEN,
        counterparty: msg.m.counterparty,
        delayPeriod: msg.m.delayPeriod,
      };
      // The counterparty's INIT end, as it must be stored there.
      const expected: ConnectionEnd = {
        clientId: msg.m.counterparty.clientId,
        versions: msg.m.counterpartyVersions,
        state: ConnState.STATE_INIT,
        counterparty: { clientId: msg.m.clientId, connectionId: '', prefix: { keyPrefix: COMMITMENT_PREFIX } },
        delayPeriod: msg.m.delayPeriod,
      };
      verifyState(
        ctx,
        'connection handshake open try failed',
        'connection state',
        end,
        msg.m.proofHeight,
        msg.m.proofInit,
        hostKeys.connection(msg.m.counterparty.connectionId),
        ConnectionEnd.encode(expected).finish(),
      );
      putConnection(ctx, id, end);
      addClientConnection(ctx, msg.m.clientId, id);
      events.push(connectionEvent('connection_open_try', id, end));
      break;
    }
    case 'connOpenAck': {
      const end = getConnection(ctx, msg.m.connectionId);
      if (end.state !== ConnState.STATE_INIT) throw err.connectionState(`connection state is not INIT (got ${ConnState[end.state]})`);
      if (!msg.m.version) throw err.invalidRequest('counterparty version cannot be empty');
      const expected: ConnectionEnd = {
        clientId: end.counterparty.clientId,
        versions: [msg.m.version],
        state: ConnState.STATE_TRYOPEN,
        counterparty: { clientId: end.clientId, connectionId: msg.m.connectionId, prefix: { keyPrefix: COMMITMENT_PREFIX } },
        delayPeriod: end.delayPeriod,
      };
      verifyState(
        ctx,
        'connection handshake open ack failed',
        'connection state',
        end,
        msg.m.proofHeight,
        msg.m.proofTry,
        hostKeys.connection(msg.m.counterpartyConnectionId),
        ConnectionEnd.encode(expected).finish(),
      );
      end.state = ConnState.STATE_OPEN;
      end.versions = [msg.m.version];
      end.counterparty = { ...end.counterparty, connectionId: msg.m.counterpartyConnectionId };
      putConnection(ctx, msg.m.connectionId, end);
      events.push(connectionEvent('connection_open_ack', msg.m.connectionId, end));
      break;
    }
    case 'connOpenConfirm': {
      const end = getConnection(ctx, msg.m.connectionId);
      if (end.state !== ConnState.STATE_TRYOPEN) throw err.connectionState(`connection state is not TRYOPEN (got ${ConnState[end.state]})`);
      const expected: ConnectionEnd = {
        clientId: end.counterparty.clientId,
        versions: end.versions,
        state: ConnState.STATE_OPEN,
        counterparty: { clientId: end.clientId, connectionId: msg.m.connectionId, prefix: { keyPrefix: COMMITMENT_PREFIX } },
        delayPeriod: end.delayPeriod,
      };
      verifyState(
        ctx,
        'connection handshake open confirm failed',
        'connection state',
        end,
        msg.m.proofHeight,
        msg.m.proofAck,
        hostKeys.connection(end.counterparty.connectionId),
        ConnectionEnd.encode(expected).finish(),
      );
      end.state = ConnState.STATE_OPEN;
      putConnection(ctx, msg.m.connectionId, end);
      events.push(connectionEvent('connection_open_confirm', msg.m.connectionId, end));
      break;
    }
  }
}
