/**
 * classic-level (LevelDB, a native addon with its own copy of abstract-level) is loaded on first
 * use: an in-memory node, the default, never opens one, and loading it cost ≈ 50 ms of every start.
 */
import type { ClassicLevel } from 'classic-level';

/** A LevelDB database at `location` with utf8 keys and Uint8Array values (not opened yet). */
export async function classicLevel(location: string): Promise<ClassicLevel<string, Uint8Array>> {
  const { ClassicLevel: Classic } = await import('classic-level');
  return new Classic<string, Uint8Array>(location, { keyEncoding: 'utf8', valueEncoding: 'view' });
}
