/**
 * The HTML list of endpoints CometBFT serves for an empty request to `/` (writeListOfEndpoints):
 * methods without args first, then the others with `arg=_` placeholders, each group sorted.
 */
import type { AnyRoute } from './routes.js';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function endpointListHtml(routes: ReadonlyMap<string, AnyRoute>, host: string): string {
  const all = [...routes.values()];
  const noArgs = all
    .filter((r) => r.params.length === 0)
    .map((r) => r.method)
    .sort();
  const withArgs = all.filter((r) => r.params.length > 0).sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
  const h = escapeHtml(host);
  let html = '<html><body><br>Available endpoints:<br>';
  for (const name of noArgs) html += `<a href="//${h}/${name}">//${h}/${name}</a></br>`;
  html += '<br>Endpoints that require arguments:<br>';
  for (const r of withArgs) {
    const link = `//${h}/${r.method}?${r.params.map((x) => `${x.name}=_`).join('&')}`;
    html += `<a href="${link}">${link}</a></br>`;
  }
  return `${html}</body></html>`;
}
