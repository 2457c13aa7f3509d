export interface UpstreamEdit {
  name: string;
  file: RegExp;
  why: string;
  edits: [string, string][];
  mustNotContain?: string;
}
export const UPSTREAM_EDITS: UpstreamEdit[];
export function applyUpstreamEdit(edit: UpstreamEdit, source: string, path: string): string;
