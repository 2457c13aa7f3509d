/** Query parsing for the RPC: the event module's parser, its errors turned into CometBFT's. */
import { EventsError } from '../../events/errors.js';
import { Query } from '../../events/query/query.js';
import { QueryParseError } from './errors.js';

/** `wrap`: subscribe/unsubscribe prefix the parser's text with "failed to parse query: ". */
export function parseQuery(text: string, wrap: boolean): Query {
  try {
    return Query.parse(text);
  } catch (err) {
    if (err instanceof EventsError) throw new QueryParseError(err.message, wrap);
    throw err;
  }
}
