/**
 * Errors of the event bus and the query language. Where CometBFT fixes a text (libs/pubsub), the
 * message is that exact text, because the node RPC returns it verbatim.
 */

export abstract class EventsError extends Error {
  /** The protocol-fixed text (equal to `message`). */
  readonly shortMessage: string;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
    this.shortMessage = message;
  }
}

/** A query string that does not follow the grammar; `position` is the 0-based offset of the fault. */
export class QuerySyntaxError extends EventsError {
  readonly position: number;
  readonly query: string;

  constructor(args: { message: string; position: number; query: string }) {
    super(args.message);
    this.position = args.position;
    this.query = args.query;
  }
}

/** A hand-built AST whose operator and argument do not go together (the parser never builds one). */
export class InvalidConditionError extends EventsError {
  readonly tag: string;
  readonly op: string;
  readonly argKind: string | undefined;

  constructor(args: { tag: string; op: string; argKind: string | undefined }) {
    super(
      args.argKind === undefined
        ? `missing argument for ${args.op} in condition on ${args.tag}`
        : `invalid op/arg combination (${args.op}, ${args.argKind}) in condition on ${args.tag}`,
    );
    this.tag = args.tag;
    this.op = args.op;
    this.argKind = args.argKind;
  }
}

/** CometBFT pubsub ErrAlreadySubscribed. */
export class AlreadySubscribedError extends EventsError {
  readonly subscriber: string;
  readonly query: string;

  constructor(args: { subscriber: string; query: string }) {
    super('already subscribed');
    this.subscriber = args.subscriber;
    this.query = args.query;
  }
}

/** CometBFT pubsub ErrSubscriptionNotFound. */
export class SubscriptionNotFoundError extends EventsError {
  readonly subscriber: string;
  readonly query: string | undefined;

  constructor(args: { subscriber: string; query?: string }) {
    super('subscription not found');
    this.subscriber = args.subscriber;
    this.query = args.query;
  }
}

export class EventBusClosedError extends EventsError {
  readonly reason: string;

  constructor(args: { reason: string }) {
    super('event bus is closed');
    this.reason = args.reason;
  }
}

/** Cancel reasons, worded as CometBFT's pubsub errors (ErrUnsubscribed, ErrOutOfCapacity). */
export const CANCEL_UNSUBSCRIBED = 'client unsubscribed';
export const CANCEL_OUT_OF_CAPACITY = 'client is not pulling messages fast enough';
export const CANCEL_NODE_EXITED = 'CometBFT exited';
