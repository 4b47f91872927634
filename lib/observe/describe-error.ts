/**
 * What the log says of an error: its chain of causes, the service's errors by their code, the others by class name
 * and driver code (SQLSTATE, errno, a network code), never a message, since messages hold values (a conflict names
 * the duplicate key, a 400 the refused value). Only an unexpected error (internal_error) brings its stack, without
 * its message line, to find the bug. Class names are the runtime's: the minified bundle shortens a library's own
 * (PostgresError), not Node's (Error, TypeError). Pure.
 */
import { ServiceError } from '../errors';

export interface CauseFields {
  /** Absent for the service's errors, which their code names. */
  readonly name?: string;
  /** The service's code, or the driver's (SQLSTATE on PostgreSQL, ER_* on MySQL, ECONNREFUSED...). */
  readonly code?: string;
  /** MySQL's error number. */
  readonly errno?: number;
  /** The stack frames of an unexpected error, without its message. */
  readonly stack?: string;
}

const maxDepth = 5;

function nameOf(error: unknown): string {
  if (error instanceof Error) return error.name || error.constructor.name;
  return error === null ? 'null' : typeof error;
}

/** The `at ...` lines only: the first lines of a stack repeat the message. */
function framesOf(error: unknown): string | undefined {
  if (!(error instanceof Error) || typeof error.stack !== 'string') return undefined;
  const frames = error.stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length > 0 ? frames.map((line) => line.trim()).join('\n') : undefined;
}

function fieldsOf(error: unknown, unexpected: boolean): CauseFields {
  const record = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; errno?: unknown };
  const code = typeof record.code === 'string' || typeof record.code === 'number' ? String(record.code) : undefined;
  const errno = typeof record.errno === 'number' ? record.errno : undefined;
  const stack = unexpected && !(error instanceof ServiceError) ? framesOf(error) : undefined;
  return {
    ...(error instanceof ServiceError ? {} : { name: nameOf(error) }),
    ...(code !== undefined ? { code } : {}),
    ...(errno !== undefined ? { errno } : {}),
    ...(stack !== undefined ? { stack } : {}),
  };
}

/** The error and its causes, outermost first. */
export function describeError(error: unknown): CauseFields[] {
  const unexpected = !(error instanceof ServiceError) || error.code === 'internal_error';
  const chain: CauseFields[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < maxDepth && current !== undefined; depth++) {
    chain.push(fieldsOf(current, unexpected));
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}
