/**
 * Profile files as Cosmos EVM opens them (rpc/namespaces/ethereum/debug/utils.go): a leading
 * `~/` is the home folder, then the path is cleaned (Go's filepath.Clean); files are created or
 * truncated on the node's host. Failures read as Go's os.Create errors (`open <path>: <reason>`).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { normalize, sep } from 'node:path';

/** `~/x` → `<home>/x`, then cleaned: `a//b/../c/` → `a/c`, `` → `.`. */
export function resolveProfilePath(p: string): string {
  let out = p;
  if (out.startsWith('~/') || out.startsWith('~\\')) out = homedir() + out.slice(1);
  return goClean(out);
}

function goClean(p: string): string {
  if (p === '') return '.';
  let out = normalize(p);
  while (out.length > 1 && out.endsWith(sep)) out = out.slice(0, -1);
  return out;
}

/** Go's wording of the errno texts os.Create can fail with. */
const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
};

/** A profile file that could not be created or written. */
export class ProfileFileError extends Error {
  override name = 'ProfileFileError';
  constructor(
    readonly op: 'open' | 'write',
    readonly path: string,
    readonly code: string | undefined,
    detail: string,
  ) {
    super(`${op} ${path}: ${detail}`);
  }
}

export function fileError(op: 'open' | 'write', path: string, e: unknown): ProfileFileError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const detail = (code !== undefined ? ERRNO_TEXT[code] : undefined) ?? (e instanceof Error ? e.message : String(e));
  return new ProfileFileError(op, path, code, detail);
}

/** os.Create: creates or truncates `path` for writing. */
export async function createProfileFile(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'w');
  } catch (e) {
    throw fileError('open', path, e);
  }
}

/** Creates `path` and writes `text` to it. */
export async function writeProfileFile(path: string, text: string): Promise<void> {
  const fh = await createProfileFile(path);
  try {
    await fh.writeFile(text);
  } catch (e) {
    throw fileError('write', path, e);
  } finally {
    await fh.close();
  }
}
