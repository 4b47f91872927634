/**
 * A MySQL result read as its rows arrive, a batch at a time, on a connection held for it (mysql-connection.ts), from
 * mysql2's row events. The connection's pooling, timeouts and error classes stay with the caller.
 */
import type mysql from 'mysql2/promise';
import type { Value } from '../../../values';
import type { Row, Statement } from '../../database';

/**
 * The part of mysql2's core connection (under the promise wrapper) that streams a result's rows as events. A
 * query without a callback reports a network failure on the connection, not on itself.
 */
interface CoreConnection {
  once(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
  query(options: { sql: string; values: Value[] }): {
    on(event: 'result', listener: (row: Row) => void): unknown;
    on(event: 'error', listener: (error: Error & { fatal?: boolean }) => void): unknown;
    on(event: 'end', listener: () => void): unknown;
  };
}

/**
 * The rows as their packets arrive, in batches. MySQL's protocol cannot stop a result half way (the server sends
 * every row, and the connection carries nothing else until then), so a read that `each` stops closes its
 * connection: the rows not yet sent are never read. Rejects with what `each` threw, or the driver's error. One
 * function, longer than most: its event handlers share the batch and whether the read has ended, so that none acts
 * after another ended it.
 */
export function readRows(
  conn: mysql.PoolConnection,
  statement: Statement,
  batchRows: number,
  each: (rows: readonly Row[]) => void,
  destroy: () => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const core = conn.connection as unknown as CoreConnection;
    let batch: Row[] = [];
    let done = false;
    const lost = (error: Error) => {
      if (!done) stop(error);
    };
    const finish = () => {
      done = true;
      core.off('error', lost);
    };
    const stop = (error: unknown) => {
      finish();
      reject(error);
    };
    /** `ended`: the result is complete, so the connection carries nothing more and stays usable. */
    const hand = (ended: boolean) => {
      const rows = batch;
      batch = [];
      try {
        each(rows);
      } catch (error) {
        if (!ended) destroy();
        stop(error);
      }
    };
    core.once('error', lost);
    const query = core.query({ sql: statement.text, values: statement.params as Value[] });
    query.on('result', (row) => {
      if (done) return;
      batch.push(row);
      if (batch.length >= batchRows) hand(false);
    });
    query.on('error', (error) => {
      if (!done) stop(error);
    });
    query.on('end', () => {
      if (done) return;
      if (batch.length > 0) hand(true);
      if (done) return;
      finish();
      resolve();
    });
  });
}
