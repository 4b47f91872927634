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
