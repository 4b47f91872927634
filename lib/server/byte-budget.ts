/**
 * A count of bytes shared by the requests of the server mode: a request takes bytes before it reads them and
 * gives them back when it is answered or gone, and what would go over the limit is refused rather than waited
 * for. No IO.
 */
export interface ByteBudget {
  /** Takes `bytes` if they fit, and says whether they did. */
  take(bytes: number): boolean;
  give(bytes: number): void;
  /** Bytes taken now. */
  inUse(): number;
}

export function createByteBudget(limit: number): ByteBudget {
  let used = 0;
  return {
    take(bytes) {
      if (used + bytes > limit) return false;
      used += bytes;
      return true;
    },
    give(bytes) {
      used = Math.max(0, used - bytes);
    },
    inUse: () => used,
  };
}

/** What one request took of the budget. */
export interface RequestBytes {
  take(bytes: number): boolean;
  release(): void;
}

/** The bytes one request took from the budget, given back once, when its response is done or gone. */
export function holdFor(budget: ByteBudget): RequestBytes {
  let held = 0;
  return {
    take(bytes) {
      const fits = budget.take(bytes);
      if (fits) held += bytes;
      return fits;
    },
    release() {
      budget.give(held);
      held = 0;
    },
  };
}
