/**
 * Block parts and BlockIDs. CometBFT gossips a block as its proto bytes cut into 64 KiB parts; the
 * BlockID pairs the header hash with the part-set header (count + merkle root of the raw parts).
 */
import { merkleRoot } from '../crypto/merkle.js';
import { encodeBlock } from './proto.js';
import type { Block, BlockID, PartSetHeader } from './block.js';
import { headerHash } from './header.js';

/** CometBFT `types.BlockPartSizeBytes`. */
export const PART_SIZE = 65536;

/** Splits `bytes` into parts (views into `bytes`, not copies) and computes the part-set header. */
export function makePartSet(bytes: Uint8Array): { header: PartSetHeader; parts: Uint8Array[] } {
  const parts: Uint8Array[] = [];
  for (let off = 0; off < bytes.length; off += PART_SIZE) parts.push(bytes.subarray(off, off + PART_SIZE));
  return { header: { total: parts.length, hash: merkleRoot(parts) }, parts };
}

/** BlockID of a block, plus its proto-encoded size (BlockMeta.block_size). */
export function makeBlockId(block: Block): { blockId: BlockID; size: number } {
  const bytes = encodeBlock(block);
  const { header } = makePartSet(bytes);
  return { blockId: { hash: headerHash(block.header), partSetHeader: header }, size: bytes.length };
}
