/**
 * Node runs a timer longer than 2^31 - 1 ms (≈ 24.8 days) after 1 ms instead, with a
 * TimeoutOverflowWarning: a wait computed from a caller's value (an interval mining period, an
 * unlock duration) would then fire at once and, in a loop, spin. Every timer whose length comes
 * from input goes through `timerMs`.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` as a timer can wait it: at least 0, at most MAX_TIMER_MS (a longer wait re-checks then); NaN is 0. */
export function timerMs(ms: number): number {
  return ms > 0 ? Math.min(ms, MAX_TIMER_MS) : 0;
}
