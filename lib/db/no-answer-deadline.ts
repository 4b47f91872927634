/**
 * A client-side bound on waiting for the database: DB_STATEMENT_TIMEOUT_MS and a margin. Both drivers use it;
 * each decides in `onExpiry` how it gives up the connection. Timers only, no IO of its own.
 */
import { noAnswerError, noAnswerMarginMs } from './classify-error';

/**
 * `work`, bounded: when it has not settled DB_STATEMENT_TIMEOUT_MS after it began, `atTimeout` runs (a cancel
 * request, say); when it still has not settled a margin later, `onExpiry` gives its connection up and the answer is
 * the no-answer error. One timer and one promise: every statement pays for them, and nearly all answer in time.
 */
export function answerWithin<T>(
  work: Promise<T>,
  statementTimeoutMs: number,
  onExpiry: () => void,
  atTimeout?: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const expire = () => {
      onExpiry();
      reject(noAnswerError(statementTimeoutMs));
    };
    let timer = atTimeout
      ? setTimeout(() => {
          atTimeout();
          timer = setTimeout(expire, noAnswerMarginMs);
        }, statementTimeoutMs)
      : setTimeout(expire, statementTimeoutMs + noAnswerMarginMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

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
