/**
 * Modules stay small (issue 35 point 5; ../shared STYLE "Modules stay small"): no hand-written
 * source file of src/ runs past MAX_LINES lines. Tests (`*.test.ts`) and generated code
 * (`*.generated.ts`, written by scripts) are not counted; a file over the limit is split by concern.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const MAX_LINES = 400;

function handWritten(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return handWritten(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.generated.ts') ? [p] : [];
  });
}

/** Lines as `wc -l` counts them (a last line without a newline counts too). */
function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

describe('source file size', () => {
  it(`no hand-written source file of src/ is over ${MAX_LINES} lines`, () => {
    const files = handWritten(SRC);
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((f) => ({ file: relative(SRC, f), lines: lineCount(readFileSync(f, 'utf8')) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `src/${f.file}: ${f.lines} lines`);
    expect(over, `split these by concern (docs/architecture.md)`).toEqual([]);
  });
});
