// Counted, not timed: how many rows better-sqlite3's statements return while a piece of work runs, so a test can hold
// a read flat as a fight or a campaign grows. Spies on the statements' prototype (every connection); the caller
// undoes them with vi.restoreAllMocks().
import { vi } from 'vitest';
import type { Db } from '../../db/connection.ts';

/** From now on, counts every row `all` returns and every row `get` finds; `rows` is the running count. */
export function countRowsRead(db: Db): { readonly rows: number } {
  const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as { all(...args: unknown[]): unknown[]; get(...args: unknown[]): unknown };
  const count = { rows: 0 };
  const { all, get } = statement;
  vi.spyOn(statement, 'all').mockImplementation(function (this: unknown, ...args: unknown[]) {
    const result = all.apply(this, args);
    count.rows += result.length;
    return result;
  });
  vi.spyOn(statement, 'get').mockImplementation(function (this: unknown, ...args: unknown[]) {
    const result = get.apply(this, args);
    if (result !== undefined) count.rows += 1;
    return result;
  });
  return count;
}

/**
 * From now on, records the SQL of every statement run (`run`, `get`, `all`, `iterate`), in order; `sources` is the
 * running list. Like countRowsRead, spies on every connection; undone with vi.restoreAllMocks().
 */
export function recordStatements(db: Db): { readonly sources: readonly string[] } {
  type Method = (...args: unknown[]) => unknown;
  const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<'run' | 'get' | 'all' | 'iterate', Method>;
  const sources: string[] = [];
  for (const name of ['run', 'get', 'all', 'iterate'] as const) {
    const method = statement[name];
    vi.spyOn(statement, name).mockImplementation(function (this: { source: string }, ...args: unknown[]) {
      sources.push(this.source);
      return method.apply(this, args);
    });
  }
  return { sources };
}
