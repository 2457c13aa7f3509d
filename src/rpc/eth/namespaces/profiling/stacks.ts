/**
 * debug_stacks: Go dumps every goroutine's stack. A Node process runs JavaScript on one thread,
 * so the nearest thing is that thread's stack at the call, the libuv handles that keep the
 * process alive (listeners, sockets, timers) and the count of active async resources by kind,
 * all from the diagnostic report (process.report).
 */

interface ReportHandle {
  type?: string;
  is_active?: boolean;
  is_referenced?: boolean;
  localEndpoint?: { host?: string; port?: number } | null;
  remoteEndpoint?: { host?: string; port?: number } | null;
  filename?: string;
  signal?: string;
}

interface Report {
  header?: { nodejsVersion?: string; processId?: number; threadId?: number | null };
  javascriptStack?: { message?: string; stack?: string[] };
  libuv?: ReportHandle[];
}

export function stacksReport(): string {
  const report = process.report.getReport() as Report;
  const lines: string[] = [];
  const h = report.header ?? {};
  lines.push(
    `node ${h.nodejsVersion ?? process.version} pid ${h.processId ?? process.pid}: one JavaScript thread; its stack, then libuv handles and async resources`,
  );
  lines.push('');
  lines.push('javascript stack (main thread, at this call):');
  for (const frame of report.javascriptStack?.stack ?? []) lines.push(`    ${frame.trim()}`);
  lines.push('');
  lines.push('libuv handles:');
  for (const handle of report.libuv ?? []) lines.push(`    ${describeHandle(handle)}`);
  lines.push('');
  lines.push('active resources:');
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  for (const [kind, n] of [...counts].sort((a, b) => a[0].localeCompare(b[0]))) lines.push(`    ${kind} ×${n}`);
  return `${lines.join('\n')}\n`;
}

function describeHandle(h: ReportHandle): string {
  const state = [h.is_active ? 'active' : 'inactive', h.is_referenced ? 'ref' : 'unref'].join(', ');
  const parts = [`${h.type ?? 'handle'} (${state})`];
  if (h.localEndpoint?.port !== undefined) parts.push(`local ${h.localEndpoint.host ?? ''}:${h.localEndpoint.port}`);
  if (h.remoteEndpoint?.port !== undefined) parts.push(`remote ${h.remoteEndpoint.host ?? ''}:${h.remoteEndpoint.port}`);
  if (h.filename) parts.push(h.filename);
  if (h.signal) parts.push(h.signal);
  return parts.join(' ');
}
