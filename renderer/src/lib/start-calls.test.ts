// The page's first calls are the list web mode makes ready while the browser loads the page (core/api/start.ts):
// a call added to one and not the other would run its first time, schemas and statements built, while the GM waits.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { START_CALLS } from '../../../core/api/start.ts';

const sent = vi.hoisted(() => [] as [string, unknown][]);

vi.mock('./api.ts', () => ({
  send: (name: string, input: unknown) => {
    sent.push([name, input]);
    // Never answered: the test looks only at what was asked, and in which order.
    return new Promise(() => undefined);
  },
}));

afterEach(() => vi.unstubAllGlobals());

describe('the calls a page opened on the campaign list makes at start', () => {
  it("are core/api/start.ts's START_CALLS, in its order", async () => {
    // A page, not a test runner: the app's facts are fetched at their first read only where there is a window.
    vi.stubGlobal('window', { addEventListener: () => undefined });
    vi.stubGlobal('location', new URL('http://127.0.0.1:4000/#/'));
    const { startCalls } = await import('./start-calls.ts');
    const { router } = await import('./router.svelte.ts');
    expect(router.route.name).toBe('campaigns');
    void startCalls();
    expect(sent).toEqual(START_CALLS.map(([name, input]) => [name, input]));
  });
});
