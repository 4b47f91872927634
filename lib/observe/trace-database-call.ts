/**
 * With POWERTOOLS_TRACE_ENABLED=true, an X-Ray subsegment per database call (Powertools Tracer): named after the
 * database engine and the statement's verb (`postgres SELECT`, `mysql transaction`), annotated with the engine (as
 * `dialect`, the annotation's name since tracing began) and the kind of call, and
 * the statement's text with its placeholders as the SQL query. Never a value, and never an error's message (it
 * holds values): a failed call is marked and annotated with its code. observers.ts requires this module only
 * when tracing is on, so without tracing neither the Tracer nor the X-Ray SDK is loaded.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { ServiceError } from '../errors';
import type { CallWrapper, DatabaseCall } from '../request-context';
import { serviceName } from './observe-settings';

type Segment = NonNullable<ReturnType<Tracer['getSegment']>>;

/** The statement's first word (SELECT, INSERT...), or the kind of call. */
// Exported for tests: through traceDatabaseCalls they would turn the Tracer on, which patches node's http module
// for the whole test process
export function subsegmentName(call: DatabaseCall): string {
  const verb = call.kind === 'statement' ? /^\s*([A-Za-z]+)/.exec(call.text ?? '')?.[1]?.toUpperCase() : undefined;
  return `${call.engine} ${verb ?? call.kind}`;
}

function markFailure(subsegment: Segment, error: unknown): void {
  const code = error instanceof ServiceError ? error.code : 'internal_error';
  subsegment.addAnnotation('error_code', code);
  if (error instanceof ServiceError && error.status < 500) subsegment.addErrorFlag();
  else subsegment.addFaultFlag();
}

export function traceDatabaseCalls(): CallWrapper {
  const tracer = new Tracer({ serviceName, captureHTTPsRequests: true });
  // the subsegment of the call in flight, so a transaction's statements nest in it, also when calls run side by side
  const current = new AsyncLocalStorage<Segment>();
  return async (call, run) => {
    const parent = current.getStore() ?? (tracer.isTracingEnabled() ? tracer.getSegment() : undefined);
    if (!parent) return run();
    const subsegment = parent.addNewSubsegment(subsegmentName(call)) as Segment;
    subsegment.addAnnotation('dialect', call.engine);
    subsegment.addAnnotation('call', call.kind);
    if (call.text !== undefined && 'addSqlData' in subsegment)
      subsegment.addSqlData({ database_type: call.engine, sanitized_query: call.text });
    try {
      return await current.run(subsegment, run);
    } catch (error) {
      markFailure(subsegment, error);
      throw error;
    } finally {
      subsegment.close();
    }
  };
}
