/** The chain logo the node serves itself (`logo_uri` of /v2/info/chains): a small SVG, no external fetch. */
import type { Reply } from './context.js';

export const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" role="img" aria-label="Chainlet">
<rect width="64" height="64" rx="14" fill="#1f2a44"/>
<g fill="none" stroke="#7cc4ff" stroke-width="5" stroke-linecap="round">
<rect x="11" y="24" width="24" height="16" rx="8"/>
<rect x="29" y="24" width="24" height="16" rx="8" stroke="#ffd166"/>
</g>
</svg>
`;

export async function handleLogo(): Promise<Reply> {
  return { kind: 'asset', contentType: 'image/svg+xml', body: LOGO_SVG };
}
