// The recovery screen's reads (`ledger:get`, and the reply of every ledger write) find the entries they need through
// the index by state and read an entry's row only by its key. An entry's `state` comes after its before and after
// images in the row, and a rest's images hold every open record it counted down (a megabyte each in a long campaign):
// a walk of the campaign's rows that reads `state` reads every image on its way. Counted from the query plans, so
// the test holds the reads, not a time.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordStatements } from './testing/rows-read.ts';
import { injuringFight, useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok } = t;

afterEach(() => vi.restoreAllMocks());

/** A statement's query plan, each line's detail. Any value will do: it is bound to each `?`, or each `@name`. */
function queryPlan(db: Database.Database, sql: string, value: string): string[] {
  const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!))];
  const bound = names.length ? [Object.fromEntries(names.map((name) => [name, value]))] : Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => value);
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...bound) as { detail: string }[]).map((row) => row.detail);
}

describe("the recovery screen's reads and writes of the ledger", () => {
  it('never walk the rows of the ledger entries, only their index by state and each row by its key', async () => {
    const campaign = await ok('campaigns:create', { name: 'Long road', rulesetId: 'enigma' });
    const hero = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const session = (await ok('ledger:append', { campaignId: campaign.id, event: { type: 'SESSION_START', title: 'The long road' } })).session!;
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
    // The session recap lists the session's done entries too.
    const recap = await ok('exports:session', { id: session.id, format: 'md' });
    // The statements that choose entries by their state (`max(seq)` seeks the last key alone, and reads no state).
    const sources = [...new Set(run.sources)].filter((sql) => /\bledger_entries\b/.test(sql) && /\bstate\b/.test(sql));
    vi.restoreAllMocks();
    expect(detail.entries.length).toBe(8);
    // Its done entries, in order: the third rest was undone and then dropped by the write after it, which was undone.
    expect(recap.content).toMatch(/- Day 1: The long road starts[^\n]*\n- Day 1: A day passes[^\n]*\n- Day 2: Berrik rests[^\n]*\n- Day 2: A day passes[^\n]*\n- Day 3: Berrik rests[^\n]*\n- Day 3: A day passes: day 3 → day 4\.(?!\n- )/);
    expect(detail.canRedo).toBe(true);

    const plain = new Database(t.dir.file(), { readonly: true });
    const planOf = (sql: string) => queryPlan(plain, sql, campaign.id);
    try {
      // The recap reads the day and the lines it shows from the index alone, no entry's images (it read every column).
      const recapReads = sources.filter((sql) => /\bsession_id = \?/.test(sql)).map(planOf);
      expect(recapReads).toEqual([[expect.stringMatching(/^SEARCH ledger_entries USING COVERING INDEX ledger_entries_by_state \(campaign_id=\? AND state=\?\)$/)]]);
      const walks = sources.flatMap((sql) => {
        const plan = planOf(sql);
        // Reading the table's rows by the campaign alone is a walk of them; by (campaign, seq) it is one row.
        // (The key's own index since migration 0018, the key's b-tree before.)
        return plan.filter((line) => /^SCAN ledger_entries\b|^SEARCH ledger_entries USING (PRIMARY KEY|INDEX sqlite_autoindex_ledger_entries_1) \(campaign_id=\?\)$/.test(line)).map((line) => `${line}: ${sql}`);
      });
      expect(sources.length).toBeGreaterThan(0);
      expect(walks).toEqual([]);
    } finally {
      plain.close();
    }
  });

  it("prepare a rest's statements once, however many records it counts down, and read the party's records from their index", async () => {
    const campaign = await ok('campaigns:create', { name: 'Long road', rulesetId: 'enigma' });
    const hero = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    for (const [place, injury] of [['Bridge', 'Sprain'], ['Ford', 'Bruise'], ['Gate', 'Gash']] as const) {
      await injuringFight(ok, campaign.id, place, [hero], goblin.id, injury, 4);
    }
    const rest = () => ok('ledger:append', { campaignId: campaign.id, event: { type: 'REST', characterId: hero.id } });
    await ok('ledger:append', { campaignId: campaign.id, event: { type: 'ADVANCE_DAYS', days: 1 } });
    await rest(); // the first rest prepares what every rest after it uses

    const probe = new Database(':memory:');
    const prepare = vi.spyOn(Object.getPrototypeOf(probe) as { prepare(sql: string): unknown }, 'prepare');
    const run = recordStatements(probe);
    await ok('ledger:append', { campaignId: campaign.id, event: { type: 'ADVANCE_DAYS', days: 1 } });
    const entry = await rest();
    const prepared = prepare.mock.calls.map(([sql]) => sql);
    const sources = [...run.sources];
    vi.restoreAllMocks();
    probe.close();

    // Three records counted down, each updated by the one statement the connection keeps (one prepare each before).
    const newest = entry.entries.reduce((a, b) => (b.seq > a.seq ? b : a));
    expect(newest.log.join(' ')).toMatch(/Sprain \(Berrik\).*Bruise \(Berrik\).*Gash \(Berrik\)/);
    expect(sources.filter((sql) => /^UPDATE injuries SET data_json/.test(sql))).toHaveLength(3);
    expect(prepared.filter((sql) => /UPDATE (injuries|characters|campaigns)\b/.test(sql))).toEqual([]);

    // Every ledger write loads the party's running records: from the index that holds them, no row read.
    const plain = new Database(t.dir.file(), { readonly: true });
    try {
      const loads = [...new Set(sources)].filter((sql) => /FROM injuries\b/.test(sql) && /healed_at IS NULL/.test(sql) && !/count\(/.test(sql));
      expect(loads.length).toBeGreaterThan(0);
      for (const sql of loads) {
        const plan = queryPlan(plain, sql, hero.id);
        expect(plan, sql).toEqual([expect.stringMatching(/^SEARCH injuries USING COVERING INDEX injuries_history \(character_id=\?\)$/)]);
      }
    } finally {
      plain.close();
    }
  });
});
