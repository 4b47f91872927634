/**
 * A client-side bound on waiting for the database: DB_STATEMENT_TIMEOUT_MS and a margin. Both drivers use it;
 * each decides in `onExpiry` how it gives up the connection. Timers only, no IO of its own.
 */
import { noAnswerError, noAnswerMarginMs } from './classify-error';

/**
 * DB_STATEMENT_TIMEOUT_MS and its margin, started and stopped around each wait for the database (a transaction's
 * BEGIN, then its COMMIT): `expired` rejects with the no-answer error, after `onExpiry`, when one lasts too long.
 * Once ended it never starts again: a transaction that settled early (its connection closed) still has its
 * callback running, which must not start a deadline for a call long over.
 */
export function noAnswerDeadline(statementTimeoutMs: number, onExpiry: () => void) {
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  let reject: (error: Error) => void = () => {};
  const expired = new Promise<never>((_, r) => {
    reject = r;
  });
  // whoever raced it may be gone when it rejects
  expired.catch(() => {});
  const stop = () => clearTimeout(timer);
  return {
    expired,
    start() {
      stop();
      if (ended) return;
      timer = setTimeout(() => {
        onExpiry();
        reject(noAnswerError(statementTimeoutMs));
      }, statementTimeoutMs + noAnswerMarginMs);
    },
    stop,
    end() {
      ended = true;
      stop();
    },
  };
}
