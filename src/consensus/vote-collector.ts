/**
 * Collects the votes of a step from the validators this process runs; while the online ones hold
 * no more than 2/3 of the power the chain halts there (`ChainHalted`) until enough come back.
 */
import type { Logger } from 'pino';
import type { EventBus } from '../events/bus.js';
import type { BlockID } from '../types/block.js';
import type { Timestamp } from '../types/time.js';
import type { ValidatorSet } from '../types/validator-set.js';
import { NodeStoppedError } from './errors.js';
import type { LocalValidator } from './validator.js';
import type { VoteSet } from './vote-set.js';
import type { Waker } from './waker.js';

export interface VoteCollectorDeps {
  validators: LocalValidator[];
  eventBus: EventBus;
  logger: Logger;
  /** Woken when a validator comes back (or the node stops). */
  waker: Waker;
  isStopped(): boolean;
  voteTime(blockTime: Timestamp): Timestamp;
}

export class VoteCollector {
  private halted = false;

  constructor(private readonly d: VoteCollectorDeps) {}

  /** The local validator with `address`, if this process runs it. */
  local(address: Uint8Array): LocalValidator | undefined {
    return this.d.validators.find((v) => Buffer.compare(v.address, address) === 0);
  }

  /** Every online validator signs `blockId` (or nil) and its vote is verified into the set, until +2/3 of any votes. */
  async collect(set: VoteSet, blockId: BlockID, vals: ValidatorSet, blockTime: Timestamp): Promise<void> {
    for (;;) {
      vals.validators.forEach((v, index) => {
        const local = this.local(v.address);
        if (!local?.online) return;
        const vote = local.signVote(set.type, set.height, set.round, blockId, index, this.d.voteTime(blockTime));
        if (set.addVote(vote)) this.d.eventBus.publish('Vote', { vote });
      });
      if (set.hasTwoThirdsAny()) {
        if (this.halted) {
          this.halted = false;
          this.d.logger.info({ height: set.height }, 'quorum restored: block production resumes');
        }
        return;
      }
      if (!this.halted) {
        this.halted = true;
        const online = set.power();
        this.d.logger.warn(
          { height: set.height, round: set.round, online, total: vals.totalVotingPower() },
          'chain halted: online voting power is not more than 2/3',
        );
        this.d.eventBus.publish('ChainHalted', {
          height: set.height,
          reason: `online voting power ${online} of ${vals.totalVotingPower()} is not more than 2/3 (round ${set.round})`,
        });
      }
      await this.d.waker.wait();
      if (this.d.isStopped()) throw new NodeStoppedError();
    }
  }
}
