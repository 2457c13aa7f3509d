/**
 * A parsed and compiled event query: parse once, then match many events or hand the AST to an
 * indexer's search planner.
 */
import { compileQuery, type EventsMatcher } from './compile.js';
import { formatQuery, parseQuery, type QueryAst } from './syntax.js';

export class Query {
  /** The text as given (what CometBFT echoes back in subscription messages). */
  readonly source: string;
  readonly ast: QueryAst;
  private readonly matcher: EventsMatcher;
  private readonly canonical: string;

  private constructor(source: string, ast: QueryAst) {
    this.source = source;
    this.ast = ast;
    this.matcher = compileQuery(ast);
    this.canonical = formatQuery(ast);
  }

  /** Parses and compiles `s`; throws QuerySyntaxError on bad syntax. */
  static parse(s: string): Query {
    return new Query(s, parseQuery(s));
  }

  /** Compiles a ready AST (e.g. one built by code); `source` defaults to its canonical text. */
  static fromAst(ast: QueryAst, source?: string): Query {
    return new Query(source ?? formatQuery(ast), ast);
  }

  /** Whether a flattened event map (`type.key` → values) satisfies every condition. */
  matches(events: Readonly<Record<string, readonly string[]>>): boolean {
    return this.matcher(events);
  }

  /** The canonical form (`tag op arg` joined by " AND "), as CometBFT's Query.String(). */
  toString(): string {
    return this.canonical;
  }
}
