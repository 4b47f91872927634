/**
 * The client-side bound on a statement (lib/db/no-answer-deadline.ts, answerWithin): its answer passes through, and
 * no timer is left behind; at DB_STATEMENT_TIMEOUT_MS the cancel runs, and a margin later, still unanswered, the
 * connection is given up and the answer is the no-answer error. The fault tests run it against real servers.
 */
import { noAnswerMarginMs } from '../../lib/db/classify-error';
import { answerWithin } from '../../lib/db/no-answer-deadline';

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

const never = () => new Promise<never>(() => {});

it('passes an answer or a failure through, leaving no timer', async () => {
  const expired = jest.fn();
  await expect(answerWithin(Promise.resolve(7), 1000, expired, expired)).resolves.toBe(7);
  await expect(answerWithin(Promise.reject(new Error('refused')), 1000, expired)).rejects.toThrow('refused');
  expect(jest.getTimerCount()).toBe(0);
  jest.advanceTimersByTime(5000);
  expect(expired).not.toHaveBeenCalled();
});

it('cancels at the timeout, and gives the connection up a margin later', async () => {
  const [cancel, giveUp] = [jest.fn(), jest.fn()];
  const answer = answerWithin(never(), 1000, giveUp, cancel);
  const settled = jest.fn();
  answer.catch(settled);
  jest.advanceTimersByTime(999);
  expect(cancel).not.toHaveBeenCalled();
  jest.advanceTimersByTime(1);
  expect(cancel).toHaveBeenCalledTimes(1);
  jest.advanceTimersByTime(noAnswerMarginMs - 1);
  await Promise.resolve();
  expect(giveUp).not.toHaveBeenCalled();
  expect(settled).not.toHaveBeenCalled();
  jest.advanceTimersByTime(1);
  expect(giveUp).toHaveBeenCalledTimes(1);
  await expect(answer).rejects.toMatchObject({ code: 'NO_ANSWER' });
});

it('without a cancel, gives up once the timeout and the margin have passed', async () => {
  const giveUp = jest.fn();
  const answer = answerWithin(never(), 1000, giveUp);
  answer.catch(() => {});
  jest.advanceTimersByTime(1000 + noAnswerMarginMs - 1);
  expect(giveUp).not.toHaveBeenCalled();
  jest.advanceTimersByTime(1);
  expect(giveUp).toHaveBeenCalledTimes(1);
  await expect(answer).rejects.toMatchObject({ code: 'NO_ANSWER' });
});

it('answers in time after the cancel: the answer, and no give-up', async () => {
  const giveUp = jest.fn();
  let answerNow: (value: string) => void = () => {};
  const answer = answerWithin(new Promise<string>((resolve) => (answerNow = resolve)), 1000, giveUp, () => {
    answerNow('cancelled by the server');
  });
  jest.advanceTimersByTime(1000);
  await expect(answer).resolves.toBe('cancelled by the server');
  jest.advanceTimersByTime(noAnswerMarginMs * 2);
  expect(giveUp).not.toHaveBeenCalled();
  expect(jest.getTimerCount()).toBe(0);
});
