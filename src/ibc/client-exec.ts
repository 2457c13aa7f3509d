/**
 * 02-client: create and update 07-tendermint clients (header verification, misbehaviour freezes),
 * client status, and the proof check every handshake and packet message runs against a client.
 */
import { Any } from 'cosmjs-types/google/protobuf/any';
import { ClientState as TmClientState, ConsensusState as TmConsensusState, Header as TmHeader } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import { ClientPaths, type ConnectionEnd } from 'cosmjs-types/ibc/core/connection/v1/connection';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import type { AbciEvent } from '../abci/types.js';
import { CosmosTxError } from '../sdk/errors.js';
import { bytesEqual } from '../crypto/encoding.js';
import { ev } from './bank.js';
import { err, nextId, read, write, type IbcExecContext } from './exec-context.js';
import { CLIENT_TYPE, hostKeys } from './keys.js';
import { verifyTmHeader } from './light-client.js';
import { verifyIbcMembership, verifyIbcNonMembership } from './proofs.js';

export function createClient(ctx: IbcExecContext, clientState: Any | undefined, consensusState: Any | undefined, events: AbciEvent[]): Record<string, unknown> {
  if (!clientState || clientState.typeUrl !== '/ibc.lightclients.tendermint.v1.ClientState')
    throw err.invalidRequest(`client state must be a ${CLIENT_TYPE} ClientState`);
  if (!consensusState || consensusState.typeUrl !== '/ibc.lightclients.tendermint.v1.ConsensusState')
    throw err.invalidRequest(`consensus state must be a ${CLIENT_TYPE} ConsensusState`);
  const cs = TmClientState.decode(clientState.value);
  TmConsensusState.decode(consensusState.value);
  if (cs.chainId === '' || cs.latestHeight.revisionHeight === 0n) throw err.invalidRequest('client state needs a chain id and a latest height');
  const id = nextId(ctx, hostKeys.nextClientSequence, CLIENT_TYPE);
  write(ctx, hostKeys.clientState(id), Any.encode(clientState).finish());
  write(ctx, hostKeys.consensusState(id, cs.latestHeight.revisionNumber, cs.latestHeight.revisionHeight), Any.encode(consensusState).finish());
  const h = `${cs.latestHeight.revisionNumber}-${cs.latestHeight.revisionHeight}`;
  events.push(ev('create_client', ['client_id', id], ['client_type', CLIENT_TYPE], ['consensus_heights', h]));
  return { clientId: id };
}

/**
 * 07-tendermint's update, as ibc-go's keeper runs it: the client must be active (not frozen, not
 * expired), the header verifies against the trusted consensus state (signatures and CometBFT's time
 * checks against this block's time), then a header at a height that already has a consensus state
 * is either the same one (nothing changes) or misbehaviour: the client freezes (`frozen_height`
 * 0-1), and the tx still succeeds, as ibc-go's does.
 */
export function updateClient(ctx: IbcExecContext, clientId: string, message: Any | undefined, events: AbciEvent[]): void {
  const cs = requireActiveClient(ctx, clientId, (status) => `cannot update client (${clientId}) with status ${status}`);
  if (!message || message.typeUrl !== '/ibc.lightclients.tendermint.v1.Header') throw err.invalidHeader('client message must be a 07-tendermint Header');
  let header: TmHeader;
  try {
    header = TmHeader.decode(message.value);
  } catch (e) {
    throw err.invalidHeader(`undecodable header: ${(e as Error).message}`);
  }
  const trusted = readConsensus(ctx, clientId, header.trustedHeight);
  if (!trusted) throw err.consensusNotFound(clientId, `${header.trustedHeight.revisionNumber}-${header.trustedHeight.revisionHeight}`);
  let verified: ReturnType<typeof verifyTmHeader>;
  try {
    const time = {
      trustedNs: consensusNs(trusted),
      trustingPeriodNs: durationNs(cs.trustingPeriod),
      maxClockDriftNs: durationNs(cs.maxClockDrift),
      nowNs: ctx.timeNs,
    };
    verified = verifyTmHeader(
      { chainId: cs.chainId, trustedNextValidatorsHash: trusted.nextValidatorsHash, latestHeight: header.trustedHeight.revisionHeight, time },
      header,
    );
  } catch (e) {
    throw err.invalidHeader((e as Error).message);
  }
  const height = verified.height;
  const consensus: TmConsensusState = TmConsensusState.fromPartial({
    timestamp: header.signedHeader?.header?.time,
    root: { hash: verified.consensusState.root },
    nextValidatorsHash: verified.consensusState.nextValidatorsHash,
  });
  const consensusBytes = Any.encode({ typeUrl: '/ibc.lightclients.tendermint.v1.ConsensusState', value: TmConsensusState.encode(consensus).finish() }).finish();
  const key = hostKeys.consensusState(clientId, cs.latestHeight.revisionNumber, height);
  const existing = read(ctx, key);
  if (existing && !bytesEqual(existing, consensusBytes)) {
    // Two valid headers for one height (CheckForMisbehaviour): freeze (UpdateStateOnMisbehaviour).
    cs.frozenHeight = { revisionNumber: 0n, revisionHeight: 1n };
    putClientState(ctx, clientId, cs);
    events.push(ev('client_misbehaviour', ['client_id', clientId], ['client_type', CLIENT_TYPE]));
    return;
  }
  if (!existing) write(ctx, key, consensusBytes); // the same header again changes nothing
  if (height > cs.latestHeight.revisionHeight) {
    cs.latestHeight = { revisionNumber: cs.latestHeight.revisionNumber, revisionHeight: height };
    putClientState(ctx, clientId, cs);
  }
  events.push(ev('update_client', ['client_id', clientId], ['client_type', CLIENT_TYPE], ['consensus_heights', `${cs.latestHeight.revisionNumber}-${height}`]));
}

function putClientState(ctx: IbcExecContext, clientId: string, cs: TmClientState): void {
  write(
    ctx,
    hostKeys.clientState(clientId),
    Any.encode({ typeUrl: '/ibc.lightclients.tendermint.v1.ClientState', value: TmClientState.encode(cs).finish() }).finish(),
  );
}

const durationNs = (d: { seconds: bigint; nanos: number } | undefined): bigint => (d ? d.seconds * 1_000_000_000n + BigInt(d.nanos) : 0n);
const consensusNs = (c: TmConsensusState): bigint => durationNs(c.timestamp);

/** 07-tendermint's Status: Frozen (a frozen height is set), Expired (the latest consensus state is older than the trusting period at this block's time), else Active. */
function clientStatus(ctx: IbcExecContext, clientId: string, cs: TmClientState): 'Active' | 'Frozen' | 'Expired' {
  if (cs.frozenHeight.revisionNumber !== 0n || cs.frozenHeight.revisionHeight !== 0n) return 'Frozen';
  const latest = readConsensus(ctx, clientId, cs.latestHeight);
  if (!latest || consensusNs(latest) + durationNs(cs.trustingPeriod) <= ctx.timeNs) return 'Expired';
  return 'Active';
}

/** The client, refused with ibc-go's ErrClientNotActive unless it is active. */
export function requireActiveClient(ctx: IbcExecContext, clientId: string, why: (status: string) => string): TmClientState {
  const cs = requireClient(ctx, clientId);
  const status = clientStatus(ctx, clientId, cs);
  if (status !== 'Active') throw err.clientNotActive(why(status));
  return cs;
}

export function requireClient(ctx: IbcExecContext, clientId: string): TmClientState {
  const raw = read(ctx, hostKeys.clientState(clientId));
  if (!raw) throw err.clientNotFound(clientId);
  return TmClientState.decode(Any.decode(raw).value);
}

export function readConsensus(ctx: IbcExecContext, clientId: string, h: Height): TmConsensusState | undefined {
  const raw = read(ctx, hostKeys.consensusState(clientId, h.revisionNumber, h.revisionHeight));
  return raw && TmConsensusState.decode(Any.decode(raw).value);
}

/** A proof height must be a height whose consensus state the client has verified, and the client active (ibc-go's verify functions). */
export function requireProofHeight(ctx: IbcExecContext, clientId: string, h: Height): TmConsensusState {
  requireActiveClient(ctx, clientId, (status) => `client (${clientId}) status is ${status}`);
  const c = readConsensus(ctx, clientId, h);
  if (!c) throw err.consensusNotFound(clientId, `${h.revisionNumber}-${h.revisionHeight}`);
  return c;
}

/**
 * ibc-go's Verify* of the connection keeper: `value` (undefined: absence) at the counterparty's
 * `path` under the connection's counterparty prefix, proven against the client's consensus root at
 * `proofHeight` (an inactive client or unknown proof height fails first, as in requireProofHeight).
 * A proof that fails wraps as ibc-go's: `<msg>: failed <what> verification for client (<id>): <cause>`.
 */
export function verifyState(
  ctx: IbcExecContext,
  msgWhy: string,
  what: string,
  conn: ConnectionEnd,
  proofHeight: Height,
  proof: Uint8Array,
  path: string,
  value: Uint8Array | undefined,
): void {
  const consensus = requireProofHeight(ctx, conn.clientId, proofHeight);
  const prefix = conn.counterparty.prefix?.keyPrefix ?? new Uint8Array(0);
  try {
    if (prefix.length === 0) throw new CosmosTxError(3, "prefix can't be empty: invalid prefix", 'commitment');
    const root = consensus.root?.hash ?? new Uint8Array(0);
    if (value === undefined) verifyIbcNonMembership(proof, root, prefix, path);
    else verifyIbcMembership(proof, root, prefix, path, value);
  } catch (e) {
    if (!(e instanceof CosmosTxError)) throw e;
    throw new CosmosTxError(e.code, `${msgWhy}: failed ${what} verification for client (${conn.clientId}): ${e.log}`, e.codespace);
  }
}

/** ibc-go's `clients/<id>/connections`: the client's connection ids (a ClientPaths message). */
export function addClientConnection(ctx: IbcExecContext, clientId: string, connectionId: string): void {
  const key = hostKeys.clientConnections(clientId);
  const raw = read(ctx, key);
  const paths = raw ? ClientPaths.decode(raw).paths : [];
  write(ctx, key, ClientPaths.encode({ paths: [...paths, connectionId] }).finish());
}
