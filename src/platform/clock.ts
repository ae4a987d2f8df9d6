/**
 * The kernel's clock: what "now" is for the rules that count time in the process (the rate limiter's minute windows).
 * It is the wall clock unless a test sets it, so a test reaches the next minute by moving the clock, never by sleeping.
 */
let fixed: number | null = null;

export const clock = {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number {
    return fixed ?? Date.now();
  },
};

/** Holds the clock at `ms` (tests only); `null` gives the wall clock back. */
export function setClock(ms: number | null): void {
  fixed = ms;
}

/** Moves a held clock on by `ms` (tests only). */
export function advanceClock(ms: number): void {
  fixed = clock.now() + ms;
}
