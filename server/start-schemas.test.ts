// What a start builds before it serves: the request table's schemas, every ruleset's event and recovery schemas
// and the file importer's were built as their modules loaded (1,164 zod builders called, about a quarter of a second
// of a web start's import; docs/performance.md "Start"). They are built on first use; this counts the zod builders
// each module of web mode calls as it loads.
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../db/testing/temp-db.ts';

const root = join(import.meta.dirname, '..');
const built = vi.hoisted(() => ({ byFile: new Map<string, number>() }));

// The real zod, with its `z` counted: each call of one of its builders (z.string(), z.strictObject(...),
// z.iso.date()), by the app's file that made it (the first frame of the stack outside node_modules).
vi.mock('zod', async (original) => {
  const actual = await original<typeof import('zod')>();
  const counted = <T extends object>(target: T): T => new Proxy(target, {
    get(object, key, receiver) {
      const value: unknown = Reflect.get(object, key, receiver);
      if (typeof value === 'function' && typeof key === 'string') {
        return (...args: unknown[]) => {
          const caller = (new Error().stack ?? '').split('\n').slice(2).find((line) => line.includes(root) && !line.includes('node_modules')) ?? '';
          const file = caller.slice(caller.indexOf(root) + root.length + 1).replace(/:\d+:\d+\)?$/, '');
          built.byFile.set(file, (built.byFile.get(file) ?? 0) + 1);
          return (value as (...a: unknown[]) => unknown)(...args);
        };
      }
      return key === 'iso' && value && typeof value === 'object' ? counted(value) : value;
    },
  });
  // The app imports zod as a namespace (`import * as z`), so that the bundle keeps only what it uses.
  return counted({ ...actual });
});

const countBuilt = () => [...built.byFile.values()].reduce((sum, count) => sum + count, 0);

describe('a start of web mode', () => {
  it('builds no request schema and no ruleset schema as its modules load, only the lazy shells', async () => {
    await import('./web-main.ts');
    const files = [...built.byFile];
    const total = files.reduce((sum, [, count]) => sum + count, 0);
    // A ruleset's module, the request table and the file importer build at most the z.lazy that holds each schema.
    expect(files.filter(([file, count]) => /^core\/(rulesets|api|export)\//.test(file) && count > 3)).toEqual([]);
    // What is still built at import (64): the pieces every schema shares (encounter/schemas.ts) and the schemas of
    // stored rows (the kernels, server/ledger-store.ts).
    expect(total, JSON.stringify(files)).toBeLessThanOrEqual(70);
  }, 60_000);
});

describe("web mode's first screen, made ready while the browser loads the page", () => {
  it("leaves the page's first calls no schema to build", async () => {
    const { openApp } = await import('./app.ts');
    const { warmFirstScreen } = await import('./first-screen.ts');
    const { START_CALLS } = await import('../core/api/start.ts');
    const dir = tempDir();
    const app = openApp({ databasePath: dir.file(), transport: 'web', version: 'test' });
    try {
      // What web mode does before it prints the address, then in the idle turns after.
      await app.dispatch('recovery:status', {});
      await warmFirstScreen(app);
      const before = countBuilt();
      // The page's first calls (renderer/src/lib/start-calls.ts sends them: start-calls.test.ts).
      for (const [name, input] of START_CALLS) {
        expect('result' in (await app.dispatch(name, input)), name).toBe(true);
      }
      expect(countBuilt() - before, JSON.stringify([...built.byFile])).toBe(0);
    } finally {
      app.close();
      dir.remove();
    }
  }, 60_000);

  it('runs one call per turn of the event loop, so that a request coming meanwhile waits for one at most', async () => {
    const { FIRST_SCREEN_CALLS, warmFirstScreen } = await import('./first-screen.ts');
    let calls = 0;
    const warming = warmFirstScreen({ dispatch: async () => (calls++, { result: null }) });
    expect(calls).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(1);
    await warming;
    expect(calls).toBe(FIRST_SCREEN_CALLS.length);
  });
});
