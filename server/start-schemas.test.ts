// What a start builds before it serves: the request table's schemas, every ruleset's event and recovery schemas
// and the file importer's were built as their modules loaded (1,164 zod builders called, about a quarter of a second
// of a web start's import; docs/performance.md "Start"). They are built on first use; this counts the zod builders
// each module of web mode calls as it loads.
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

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
