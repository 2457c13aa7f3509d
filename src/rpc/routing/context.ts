/** What every route handler receives, and what it returns for the server to write. */
import type { RoutingEnv } from './env.js';
import type { PriceTable } from './prices.js';
import type { TxTracker } from './tx-tracker.js';

export interface RouteContext {
  readonly env: RoutingEnv;
  readonly tracker: TxTracker;
  readonly prices: PriceTable;
  /** Public base URL of this server (for logo and explorer links), no trailing slash. */
  baseUrl(): string;
}

export type Reply =
  { kind: 'json'; status?: number; body: unknown } | { kind: 'html'; status?: number; body: string } | { kind: 'asset'; contentType: string; body: string };

export const json = (body: unknown): Reply => ({ kind: 'json', body });
