/**
 * The record of the request being served, carried through its async calls (AsyncLocalStorage): the pipeline notes
 * the resource, operation and row count in it, lib/db reports every database call through observeDatabaseCall,
 * and lib/http (lib/observe) reads it when the response is ready, for the log line and the metrics. It holds no
 * value of a row, no body and no SQL parameter: only names, counts, times and statement texts (which carry
 * placeholders, never values). Outside a request (scripts, tests of a stage) every function here does nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestRecord {
  /** The id its answer's X-Request-Id carries. */
  readonly requestId?: string;
  /** The resource named in the path, once the caller was signed in. */
  resource?: string;
  /** True once the resource's definition was found: only then is the name a bounded metric dimension. */
  resourceFound: boolean;
  /** R1, R2, C1... as named in docs/operations.md, once the request was parsed. */
  operation?: string;
  /** Rows returned by a read, or affected by a write. */
  rows?: number;
  /** The MCP tool a request to /mcp called. */
  tool?: string;
  /** The code of the error that tool call answered with (a tool error is an answer, not a failed request). */
  toolError?: string;
  /** Why the drain function could not be invoked after a write that announced events (Lambda). */
  nudgeFailed?: string;
  /** Wall time during which at least one database call was in flight. */
  dbMs: number;
  /** Statements run (a transaction's BEGIN and COMMIT are not counted). */
  dbCalls: number;
  /** The text of the first statement that failed (its placeholders, not its values). */
  failedSql?: string;
}

/** One call to a database: a statement, a whole transaction, or the catalog's description of a definition. */
export interface DatabaseCall {
  readonly engine: string;
  readonly kind: 'statement' | 'transaction' | 'describe';
  /** The statement's text with its placeholders (statement), the definition's query (describe). */
  readonly text?: string;
}

/** Wraps a database call, e.g. in a trace subsegment; must return what `run` returns. */
export type CallWrapper = <T>(call: DatabaseCall, run: () => Promise<T>) => Promise<T>;

/** Told of each finished database call (the debug log). */
export type CallListener = (call: DatabaseCall, ms: number, failed: boolean) => void;

interface RequestContext {
  readonly record: RequestRecord;
  readonly wrap?: CallWrapper;
  readonly listen?: CallListener;
  /** Database calls in flight, and since when at least one was. */
  open: number;
  busySince: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function newRequestRecord(requestId?: string): RequestRecord {
  return { requestId, resourceFound: false, dbMs: 0, dbCalls: 0 };
}

/** Runs `serve` with `record` as the current request's record. */
export function withRequestRecord<T>(
  record: RequestRecord,
  hooks: { readonly wrap?: CallWrapper; readonly listen?: CallListener },
  serve: () => Promise<T>,
): Promise<T> {
  return storage.run({ record, ...hooks, open: 0, busySince: 0 }, serve);
}

/** Runs `work` outside any request: its database calls are not the current request's (background checks). */
export function outsideRequest<T>(work: () => T): T {
  return storage.exit(work);
}

/** The current request's id; undefined outside a request. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.record.requestId;
}

/** Notes what the pipeline learnt about the current request. */
export function noteRequest(
  facts: Partial<
    Pick<RequestRecord, 'resource' | 'resourceFound' | 'operation' | 'rows' | 'nudgeFailed' | 'tool' | 'toolError'>
  >,
) {
  const context = storage.getStore();
  if (context) Object.assign(context.record, facts);
}

/**
 * Times one database call for the current request. Nested and concurrent calls (the statements of a transaction,
 * the catalog probes run side by side) count once: the time is that during which any call was in flight.
 */
export async function observeDatabaseCall<T>(call: DatabaseCall, run: () => Promise<T>): Promise<T> {
  const context = storage.getStore();
  if (!context) return run();
  const started = performance.now();
  if (context.open++ === 0) context.busySince = started;
  if (call.kind === 'statement') context.record.dbCalls++;
  let failed = false;
  try {
    return await (context.wrap ? context.wrap(call, run) : run());
  } catch (error) {
    failed = true;
    if (call.text !== undefined) context.record.failedSql ??= call.text;
    throw error;
  } finally {
    const ended = performance.now();
    if (--context.open === 0) context.record.dbMs += ended - context.busySince;
    context.listen?.(call, ended - started, failed);
  }
}
