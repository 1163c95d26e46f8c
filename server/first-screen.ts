// What the page's first screen asks for, made ready while the browser loads the page. Web mode prints its address
// and then sits idle for the 0.2–0.4 s the browser takes to fetch and run the page; the first run of a call builds
// what it keeps (its request schema, its statements, its functions' compiled code), and the campaign list waited on
// that. Running the first screen's reads once in that idle time leaves the page's own calls only their work.
import { START_CALLS } from '../core/api/start.ts';
import type { AppService } from './app.ts';

/**
 * How long after the page's start (its first call answered in web mode, its page loaded in the desktop window) its
 * first screen is taken to be shown, for what waits for it (the start's backup, web mode's code cache).
 */
export const FIRST_SCREEN_SHOWN_MS = 1_000;

/** The page's start calls besides recovery:status, which web mode makes before printing the address. */
export const FIRST_SCREEN_CALLS = START_CALLS.filter(([name]) => name !== 'recovery:status');

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs the first screen's reads once, one per turn of the event loop, so that a request that comes meanwhile waits
 * for at most one of them. Their answers are dropped; a refusal (a damaged database in recovery mode) too.
 */
export async function warmFirstScreen(service: Pick<AppService, 'dispatch'>): Promise<void> {
  for (const [name, input] of FIRST_SCREEN_CALLS) {
    await nextTurn();
    await service.dispatch(name, input).catch(() => undefined);
  }
}
