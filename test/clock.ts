import type { TestContext } from 'node:test';
import { setClock } from '../src/platform/clock.ts';

/**
 * Holds the kernel's clock at the middle of the current minute until the test ends: the rate limiter's windows are
 * whole minutes, so a counting test starts well inside one without waiting for the next.
 */
export function holdMidMinute(tc: TestContext): number {
  const at = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;
  setClock(at);
  tc.after(() => setClock(null));
  return at;
}
