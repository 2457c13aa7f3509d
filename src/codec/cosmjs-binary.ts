/**
 * cosmjs-types 0.11's `BinaryWriter.alloc` builds a new 8 KiB pool on every call, so every
 * `Msg.encode(...).finish()` allocated an 8 KiB slab and returned a view that keeps it alive: one
 * per Ethereum tx result in a block, which showed as allocation and GC time in block profiles.
 * Imported for its effect by the modules that encode with cosmjs-types: buffers of the exact size.
 */
import { BinaryWriter } from 'cosmjs-types/binary';

BinaryWriter.alloc = (size: number): Uint8Array => new Uint8Array(size);
