// The recovery screen's reads (`ledger:get`, and the reply of every ledger write) find the entries they need through
// the index by state and read an entry's row only by its key. An entry's `state` comes after its before and after
// images in the row, and a rest's images hold every open record it counted down (a megabyte each in a long campaign):
// a walk of the campaign's rows that reads `state` reads every image on its way. Counted from the query plans, so
// the test holds the reads, not a time.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordStatements } from './testing/rows-read.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok } = t;

afterEach(() => vi.restoreAllMocks());

describe("the recovery screen's reads and writes of the ledger", () => {
  it('never walk the rows of the ledger entries, only their index by state and each row by its key', async () => {
    const campaign = await ok('campaigns:create', { name: 'Long road', rulesetId: 'enigma' });
    const hero = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    for (let day = 0; day < 3; day++) {
      await ok('ledger:append', { campaignId: campaign.id, event: { type: 'ADVANCE_DAYS', days: 1 } });
      await ok('ledger:append', { campaignId: campaign.id, event: { type: 'REST', characterId: hero.id } });
    }
    // An undone entry, so that the redo's label has one to find.
    await ok('ledger:undo', { campaignId: campaign.id });

    // Spies on every connection's statements (the app's own among them).
    const run = recordStatements(new Database(':memory:'));
    // A write drops the undone entries and answers with the screen's detail; the screen's own read after it.
    await ok('ledger:append', { campaignId: campaign.id, event: { type: 'ADVANCE_DAYS', days: 1 } });
    await ok('ledger:undo', { campaignId: campaign.id });
    const detail = await ok('ledger:get', { campaignId: campaign.id });
    // The statements that choose entries by their state (`max(seq)` seeks the last key alone, and reads no state).
    const sources = [...new Set(run.sources)].filter((sql) => /\bledger_entries\b/.test(sql) && /\bstate\b/.test(sql));
    vi.restoreAllMocks();
    expect(detail.entries.length).toBe(7);
    expect(detail.canRedo).toBe(true);

    const plain = new Database(t.dir.file(), { readonly: true });
    try {
      const walks = sources.flatMap((sql) => {
        // Any value will do for a plan: each `?`, or each `@name` of a statement that names its parameters.
        const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!))];
        const bound = names.length ? [Object.fromEntries(names.map((name) => [name, campaign.id]))] : Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => campaign.id);
        const plan = (plain.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...bound) as { detail: string }[]).map((row) => row.detail);
        // Reading the table's rows by the campaign alone is a walk of them; by (campaign, seq) it is one row.
        return plan.filter((line) => /^SCAN ledger_entries\b|^SEARCH ledger_entries USING PRIMARY KEY \(campaign_id=\?\)$/.test(line)).map((line) => `${line}: ${sql}`);
      });
      expect(sources.length).toBeGreaterThan(0);
      expect(walks).toEqual([]);
    } finally {
      plain.close();
    }
  });
});
