// A character's history reads that character's rows only, each through an index that keeps them together
// (migration 0010, HISTORY_READS): its lasting records, the entries naming it, its carry-overs and the treatments
// its entries gave. Held here two ways on a real file: each read's plan, and what the history shows against the
// same facts read straight from the tables in a party of three whose rows lie mixed. And what the screens of a long
// campaign are sent: the campaign's detail carries each character's newest open records only, with how many each
// has open; a history and each timeline session carry their newest 200 items, with how many there are. And what a
// history parses: only what it sends, however long the campaign has run.
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { HISTORY_READS } from '../db/history-reads.ts';
import { ENTRY_LEADS, LINES_LEAD } from '../db/ledger.ts';
import entryLeadsMigration from '../db/migrations/0014_entry_leads.sql';
import { ENTRY_TEXT_SENT, cutText } from '../core/api/contract.ts';
import { injuringFight, useTestApp } from './testing/harness.ts';
import { countJsonCalls } from './testing/json-calls.ts';
import { recordStatements } from './testing/rows-read.ts';

const t = useTestApp();
const { ok, rows } = t;

const ledger = (campaignId: string, event: unknown) => ok('ledger:append', { campaignId, event });

const fight = (campaignId: string, name: string, heroes: { id: string; name: string }[], goblinId: string, injury: string, baseRoll?: number) =>
  injuringFight(ok, campaignId, name, heroes, goblinId, injury, baseRoll);

describe("a character's history", () => {
  it('reads each of its parts through its own index, with no table scanned and nothing sorted afterwards', async () => {
    await ok('campaigns:list', {}); // the file is open and migrated
    const db = new Database(t.dir.file(), { readonly: true });
    try {
      const plan = (sql: string, ...params: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((p) => p.detail);
      const own = { campaign: 'c', character: 'x', lasting: '["gear"]' };
      const reads = {
        recordCounts: plan(HISTORY_READS.recordCounts, own),
        lastingCounts: plan(HISTORY_READS.lastingCounts, own),
        newestGained: plan(HISTORY_READS.newestGained, { ...own, count: 200 }),
        newestHealed: plan(HISTORY_READS.newestHealed, { ...own, count: 200 }),
        sentRecords: plan(HISTORY_READS.sentRecords, { ...own, open: 50, healed: 24 }),
        entries: plan(HISTORY_READS.entries, 'c', 'x'),
        recordDetails: plan(HISTORY_READS.recordDetails, '["a", "b"]'),
        entryLines: plan(HISTORY_READS.entryLines, 'c', '[1, 2]'),
        carriedCount: plan(HISTORY_READS.carriedCount, 'character:x'),
        newestCarried: plan(HISTORY_READS.newestCarried, 'character:x', 200),
        adjustedCarried: plan(HISTORY_READS.adjustedCarried, 'character:x'),
        fights: plan(HISTORY_READS.fights, '["a", "b"]', 'c'),
        treatedOwn: plan(HISTORY_READS.treatedOwn, '[1, 2]', 'c', 'x', 'c'),
      };
      // The records counted and the newest read from the narrow index alone, in its order (walked back from the
      // newest), never a record's row. Those sent are sorted once chosen (50 and 24, and those that are not harm).
      for (const read of [reads.recordCounts, reads.lastingCounts, reads.newestGained, reads.sentRecords]) {
        expect(read).toEqual(expect.arrayContaining([expect.stringContaining('USING COVERING INDEX injuries_moments (character_id=? AND campaign_id=?)')]));
        expect(read.join('\n')).not.toMatch(/SCAN injuries|USING INDEX|PRIMARY KEY/);
      }
      expect(reads.newestGained).toEqual([expect.stringContaining('USING COVERING INDEX injuries_moments (character_id=? AND campaign_id=?)')]);
      // The newest healed walked back from the end of the index of healed records (migration 0016), nothing sorted:
      // they were sorted by their healing out of every entry of the character's records.
      expect(reads.newestHealed).toEqual([expect.stringContaining('USING COVERING INDEX injuries_healed (character_id=? AND campaign_id=? AND healed_at>?)')]);
      // The entries naming the character, with their lines' openings, from the narrow index that holds them (never
      // the index holding the whole lines, whose every seek read a rest's whole line to compare keys).
      expect(reads.entries).toEqual(expect.arrayContaining([expect.stringContaining('USING COVERING INDEX ledger_entries_history (campaign_id=? AND state=?)')]));
      expect(reads.entries.join('\n')).not.toContain('ledger_entries_by_state');
      // The lines from the index that holds them: the table's rows carry the entries' before and after images.
      expect(reads.entryLines).toEqual(expect.arrayContaining([expect.stringContaining('USING COVERING INDEX ledger_entries_by_state (campaign_id=? AND state=? AND seq=?)')]));
      expect(reads.recordDetails).toEqual(expect.arrayContaining([expect.stringContaining('injuries USING INDEX sqlite_autoindex_injuries_1 (id=?)')]));
      // The carry rows from their index alone: never each fight's row (one page or more a fight, thousands of fights).
      // Counted there, and of those the GM did not adjust the newest read back from the end (the index's order).
      expect(reads.carriedCount).toEqual([expect.stringContaining('USING COVERING INDEX encounter_carry_by_subject (subject=?)')]);
      expect(reads.newestCarried).toEqual([expect.stringContaining('USING COVERING INDEX encounter_carry_by_subject (subject=? AND adjusted_seq=?)')]);
      expect(reads.adjustedCarried).toEqual([expect.stringContaining('USING COVERING INDEX encounter_carry_by_subject (subject=? AND adjusted_seq>?)')]);
      // The fights' names from the index that holds them: never a fight's row, whose input comes before them.
      expect(reads.fights).toEqual(expect.arrayContaining([expect.stringContaining('encounters USING COVERING INDEX encounters_names (id=? AND campaign_id=?)')]));
      expect(reads.treatedOwn).toEqual(expect.arrayContaining([
        expect.stringContaining('SEARCH r USING PRIMARY KEY (campaign_id=? AND seq=?)'),
        expect.stringContaining('SEARCH i USING INDEX sqlite_autoindex_injuries_1 (id=?)'),
      ]));
      for (const [name, details] of Object.entries(reads)) {
        for (const detail of details) {
          // (Those sent are chosen by subqueries read as they are made: no table's scan.)
          expect(detail).not.toMatch(/^SCAN (?!json_each|\(subquery-\d+\))/);
          if (name !== 'sentRecords') expect(detail).not.toMatch(/TEMP B-TREE/);
        }
      }
    } finally {
      db.close();
    }
  });

  it("shows that character's records, treatments, entries and carry-overs and nobody else's", async () => {
    const campaign = await ok('campaigns:create', { name: 'Mixed', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const wren = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Wren', sheet: { endure: 10, navigate: 8 } });
    const cole = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Cole', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    // Both hurt in the same fights, so their records, treatments and carry rows are written side by side.
    await fight(campaign.id, 'Bridge', [berrik, wren], goblin.id, 'Sprain');
    await fight(campaign.id, 'Ford', [wren, berrik], goblin.id, 'Bruise');
    const wrenAlone = await fight(campaign.id, 'Cave', [wren], goblin.id, 'Cut');
    for (let day = 0; day < 2; day++) {
      await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
      await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
      await ledger(campaign.id, { type: 'REST', characterId: wren.id });
    }
    // A rest of the party names Cole, who has no record, and treats Wren's records only: Cole's recovery.
    await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
    await ledger(campaign.id, { type: 'PARTY', action: { type: 'REST' }, characterIds: [cole.id, wren.id] });
    // An undone rest treats nothing.
    await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
    await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
    await ok('ledger:undo', { campaignId: campaign.id });

    // The same facts, read straight from the tables without the history's indexes.
    const straight = (characterId: string) => {
      const entrySeqs = rows(`SELECT seq FROM ledger_entries NOT INDEXED WHERE campaign_id = ? AND state = 'done'
        AND EXISTS (SELECT 1 FROM json_each(subjects_json) WHERE value = ?) ORDER BY seq`, campaign.id, characterId).map((r) => r['seq'] as number);
      const records = rows('SELECT id, name FROM injuries NOT INDEXED WHERE character_id = ? ORDER BY created_at, source_seq', characterId).map((r) => ({
        name: r['name'],
        treatments: rows('SELECT seq FROM ledger_records NOT INDEXED WHERE record_id = ? ORDER BY seq', r['id']).map((s) => s['seq'] as number).filter((s) => entrySeqs.includes(s)),
      }));
      const carried = rows(`SELECT e.name FROM encounter_carry c NOT INDEXED JOIN encounters e ON e.id = c.encounter_id WHERE c.subject = ?`, `character:${characterId}`).map((r) => r['name']).sort();
      const treated = [...new Set(records.flatMap((r) => r.treatments))].sort((a, b) => a - b);
      return { records, entrySeqs, carried, treated };
    };
    for (const character of [berrik, wren, cole]) {
      const history = await ok('characters:history', { id: character.id });
      const expected = straight(character.id);
      expect(history.records.map((r) => ({ name: r.name, treatments: r.treatments }))).toEqual(expected.records);
      expect(history.records.every((r) => r.name.endsWith(`(${character.name})`))).toBe(true);
      expect(history.items.filter((i) => i.kind === 'carried').map((i) => i.text.match(/“(.*)”/)![1]).sort()).toEqual(expected.carried);
      expect(history.items.filter((i) => i.kind === 'treated' || i.kind === 'recovery').map((i) => i.seq)).toEqual(expected.entrySeqs);
      // The entries sent beside the records: those that treated one of them.
      expect(history.entries.map((e) => e.seq)).toEqual(expected.treated);
    }
    const berrikHistory = await ok('characters:history', { id: berrik.id });
    expect(berrikHistory.records.map((r) => r.name)).toEqual(['Sprain (Berrik)', 'Bruise (Berrik)']);
    // Each of Berrik's records treated by his two rests that were kept, and the fight he was not in left out.
    expect(berrikHistory.records.map((r) => r.treatments.length)).toEqual([2, 2]);
    expect(berrikHistory.items.some((i) => i.encounterId === wrenAlone.id)).toBe(false);
    const wrenHistory = await ok('characters:history', { id: wren.id });
    expect(wrenHistory.records.map((r) => r.name)).toEqual(['Sprain (Wren)', 'Bruise (Wren)', 'Cut (Wren)']);
    expect(wrenHistory.records.map((r) => r.treatments.length)).toEqual([3, 3, 3]);
    const coleHistory = await ok('characters:history', { id: cole.id });
    expect(coleHistory.records).toEqual([]);
    expect(coleHistory.entries).toEqual([]);
    expect(coleHistory.items.map((i) => i.kind)).toEqual(['recovery']);
  });

  it('reads the treatments of its records from their own rows, no row of ledger_records for them', async () => {
    const campaign = await ok('campaigns:create', { name: 'Slow mending', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    for (const place of ['Bridge', 'Ford', 'Cave']) await fight(campaign.id, place, [berrik], goblin.id, `Gash at the ${place}`, 4);
    for (let day = 0; day < 4; day++) {
      await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
      await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
    }
    // The rows of the statements that read which records an entry touched (not those asking whose they are).
    const read = countRowsWhere((sql) => /\bledger_records\b/.test(sql) && /\brecord_id\b/.test(sql) && !/\binjuries\b/.test(sql));
    let history;
    try {
      history = await ok('characters:history', { id: berrik.id });
    } finally {
      vi.restoreAllMocks();
    }
    // Each rest treated all three records (the fourth healed them): twelve treatments, four rests.
    const treatments = history.records.flatMap((r) => r.treatments);
    expect(history.records.map((r) => r.treatments.length)).toEqual([4, 4, 4]);
    expect(new Set(treatments).size).toBe(4);
    // Each record keeps its treatments (migration 0017): no row of ledger_records read for them (one a rest before,
    // 4 here, sought by key for each record sent: 50 rests × 74 records were 3,700 seeks at 2,000 encounters).
    expect(read.rows).toBe(0);
  });
});

describe("a record's treatments kept on its row", () => {
  it('name the entries ledger_records names for it that are done, through undo, redo, a record written anew and an import', async () => {
    const campaign = await ok('campaigns:create', { name: 'Kept treatments', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    await fight(campaign.id, 'Bridge', [berrik], goblin.id, 'Gash', 4);
    // A fight still running whose injury a rest treats.
    const running = await ok('encounters:create', { campaignId: campaign.id, name: 'Cave' });
    await ok('encounters:addFromCampaign', { id: running.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    const started = await ok('encounters:append', { id: running.id, event: { type: 'START' } });
    const hero = started.view.order.find((x) => x.name === 'Berrik')!.id;
    await ok('encounters:append', { id: running.id, event: { type: 'APPLY_DAMAGE', targetId: hero, amount: 20, source: 'a trap' } });
    await ok('encounters:append', { id: running.id, event: { type: 'RESOLVE_PERIL', combatantId: hero, choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Bite', category: 'speed', baseRoll: 4 } } });
    const rest = async () => {
      await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
      await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
    };
    /** Each record's treatments as kept on its row and as ledger_records names them, of the entries done. */
    const kept = (campaignId: string) => {
      const done = new Set(rows(`SELECT seq FROM ledger_entries WHERE campaign_id = ? AND state = 'done'`, campaignId).map((r) => r['seq'] as number));
      return rows('SELECT id, name, treatment_seqs FROM injuries WHERE campaign_id = ? ORDER BY created_at, id', campaignId).map((r) => ({
        name: r['name'],
        row: String(r['treatment_seqs'] ?? '').split(',').filter(Boolean).map(Number).filter((seq) => done.has(seq)),
        named: rows('SELECT seq FROM ledger_records WHERE campaign_id = ? AND record_id = ? ORDER BY seq', campaignId, r['id']).map((x) => x['seq'] as number).filter((seq) => done.has(seq)),
      }));
    };
    const same = (campaignId: string) => {
      const records = kept(campaignId);
      expect(records.map((r) => r.row)).toEqual(records.map((r) => r.named));
      return records;
    };
    await rest();
    await rest();
    expect(same(campaign.id).map((r) => r.row.length)).toEqual([2, 2]);
    // The newest rest taken back and brought back; then taken back and another written in its place (it is dropped).
    await ok('ledger:undo', { campaignId: campaign.id });
    expect(same(campaign.id).map((r) => r.row.length)).toEqual([1, 1]);
    await ok('ledger:redo', { campaignId: campaign.id });
    expect(same(campaign.id).map((r) => r.row.length)).toEqual([2, 2]);
    await ok('ledger:undo', { campaignId: campaign.id });
    await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
    expect(same(campaign.id).map((r) => r.row.length)).toEqual([2, 2]);
    // Every entry taken back (two rests, the day between them and the first), the running fight's injury taken back
    // with its event (its row deleted) and brought back (written anew, without its treatments), then the entries
    // brought back: the record has its treatments again.
    for (let n = 0; n < 4; n++) await ok('ledger:undo', { campaignId: campaign.id });
    expect(same(campaign.id).map((r) => r.row.length)).toEqual([0, 0]);
    await ok('encounters:undo', { id: running.id });
    expect(kept(campaign.id).map((r) => r.name)).toEqual(['Gash (Berrik)']);
    await ok('encounters:redo', { id: running.id });
    expect(rows("SELECT treatment_seqs FROM injuries WHERE name = 'Bite'")).toEqual([{ treatment_seqs: null }]);
    for (let n = 0; n < 4; n++) await ok('ledger:redo', { campaignId: campaign.id });
    const records = same(campaign.id);
    expect(records.map((r) => r.row.length)).toEqual([2, 2]);
    const history = await ok('characters:history', { id: berrik.id });
    expect(history.records.map((r) => r.treatments)).toEqual(records.map((r) => r.named));
    // Through a campaign file: the imported records keep their treatments as its ledger names them.
    const file = await ok('exports:campaign', { id: campaign.id });
    const imported = await ok('imports:campaign', { content: file.content });
    expect(same(imported.id).map((r) => r.row.length)).toEqual([2, 2]);
    const copy = (await ok('campaigns:get', { id: imported.id })).characters.find((x) => x.role === 'pc')!;
    expect((await ok('characters:history', { id: copy.id })).records.map((r) => r.treatments.length)).toEqual([2, 2]);
  }, 60_000);
});

describe("a campaign's detail", () => {
  it("carries each character's newest open records only, oldest first, with how many each has open", async () => {
    const campaign = await ok('campaigns:create', { name: 'Long', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const wren = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Wren', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    await fight(campaign.id, 'Fight 1', [berrik, wren], goblin.id, 'Cut 1');
    for (let n = 2; n <= 10; n++) await fight(campaign.id, `Fight ${n}`, [berrik], goblin.id, `Cut ${n}`);
    // Wren's record heals (three rests).
    for (let day = 0; day < 3; day++) {
      await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
      await ledger(campaign.id, { type: 'REST', characterId: wren.id });
    }
    expect(rows('SELECT count(*) AS n FROM injuries WHERE character_id = ? AND healed_at IS NOT NULL', wren.id)[0]!['n']).toBe(1);

    const detail = await ok('campaigns:get', { id: campaign.id });
    expect(detail.injuries.map((i) => i.name)).toEqual([3, 4, 5, 6, 7, 8, 9, 10].map((n) => `Cut ${n} (Berrik)`));
    expect(detail.injuries.every((i) => i.healedAt === null && i.characterId === berrik.id)).toBe(true);
    expect(detail.openInjuries).toEqual({ [berrik.id]: 10 });
  });

  it('reads the open records character by character through their indexes: no scan of the records, no sort of them all', async () => {
    const campaign = await ok('campaigns:create', { name: 'Plans', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    await fight(campaign.id, 'Bridge', [berrik], goblin.id, 'Cut');
    const statements = recordStatements(new Database(':memory:'));
    try {
      await ok('campaigns:get', { id: campaign.id });
    } finally {
      vi.restoreAllMocks();
    }
    const db = new Database(t.dir.file(), { readonly: true });
    try {
      const reads = statements.sources.filter((sql) => /\binjuries\b/.test(sql));
      expect(reads.length).toBeGreaterThan(0);
      for (const sql of reads) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 'x')) as { detail: string }[]).map((p) => p.detail);
        // One sort of every open record of the campaign, each read from its row, was a third of a second at 2,000 fights.
        expect(plan.join('\n'), sql).not.toMatch(/SCAN injuries|TEMP B-TREE/);
      }
    } finally {
      db.close();
    }
  });
});

describe('a long history in a reply', () => {
  it('carries the newest 200 items and how many there are, and all of them when asked', async () => {
    const campaign = await ok('campaigns:create', { name: 'Long road', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    await fight(campaign.id, 'Bridge', [berrik], goblin.id, 'Sprain');
    for (let day = 0; day < 210; day++) {
      await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
      await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
    }
    const all = await ok('characters:history', { id: berrik.id, allItems: true });
    const newest = await ok('characters:history', { id: berrik.id });
    // Gained, carried, 210 rests (three treat the sprain, the last of them heals it): 213 things.
    expect(all.itemCount).toBe(all.items.length);
    expect(all.items.length).toBeGreaterThan(210);
    expect(newest.itemCount).toBe(all.items.length);
    expect(newest.items).toEqual(all.items.slice(-200));
    // The record says it healed though its healing is not among the newest 200.
    expect(newest.items.some((i) => i.kind === 'healed')).toBe(false);
    expect(newest.records.map((r) => r.healed)).toEqual([true]);
    expect(newest.records).toEqual(all.records);

    // The timeline's sessions: the one played holds every fight and rest here.
    const timeline = await ok('campaigns:timeline', { id: campaign.id });
    const full = await ok('campaigns:timeline', { id: campaign.id, allItems: true });
    expect(timeline.groups.map((g) => g.itemCount)).toEqual(full.groups.map((g) => g.items.length));
    expect(Math.max(...full.groups.map((g) => g.items.length))).toBeGreaterThan(400);
    timeline.groups.forEach((g, i) => expect(g.items).toEqual(full.groups[i]!.items.slice(-200)));
  });

  it('carries the newest 50 open and 24 healed records with their counts and the entries they name, and all when asked', async () => {
    const campaign = await ok('campaigns:create', { name: 'Scarred', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    // 30 injuries that one rest heals, then 55 that stay open.
    for (let n = 1; n <= 30; n++) await fight(campaign.id, `Old ${n}`, [berrik], goblin.id, `Graze ${n}`, 1);
    await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
    await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
    for (let n = 1; n <= 55; n++) await fight(campaign.id, `New ${n}`, [berrik], goblin.id, `Cut ${n}`);
    await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
    await ledger(campaign.id, { type: 'REST', characterId: berrik.id });

    const all = await ok('characters:history', { id: berrik.id, allRecords: true });
    const newest = await ok('characters:history', { id: berrik.id });
    expect(all.recordCounts).toEqual({ open: 55, healed: 30 });
    expect(newest.recordCounts).toEqual(all.recordCounts);
    expect(all.records).toHaveLength(85);
    const names = (h: typeof all) => h.records.map((r) => r.name.replace(' (Berrik)', ''));
    expect(names(newest)).toEqual([
      ...Array.from({ length: 24 }, (_, i) => `Graze ${i + 7}`),
      ...Array.from({ length: 50 }, (_, i) => `Cut ${i + 6}`),
    ]);
    expect(newest.records).toEqual(all.records.filter((r) => names(newest).includes(r.name.replace(' (Berrik)', ''))));
    // The entries are those the sent records name: the first rest treated only the healed ones.
    expect(all.entries.map((e) => e.seq)).toEqual(newest.entries.map((e) => e.seq));
    expect(new Set(newest.records.flatMap((r) => r.treatments))).toEqual(new Set(newest.entries.map((e) => e.seq)));
    expect(newest.items).toEqual(all.items);
    // A rest's line counts every open record down: sent cut as the cards show it, whole among the items.
    const last = newest.entries.at(-1)!;
    expect(last.text).toHaveLength(200);
    expect(last.text.endsWith('…')).toBe(true);
    const whole = newest.items.find((i) => i.seq === last.seq)!.text;
    expect(whole.length).toBeGreaterThan(200);
    expect(whole.startsWith(last.text.slice(0, -1))).toBe(true);
  });

  it('refuses a malformed request for all the items or records', async () => {
    expect(await t.refused('characters:history', { id: 'x', allRecords: 'yes' })).toBeTruthy();
    expect(await t.refused('characters:history', { id: 'x', allItems: 'yes' })).toBeTruthy();
    expect(await t.refused('campaigns:timeline', { id: 'x', allItems: 1 })).toBeTruthy();
  });
});

describe("a character's history as the campaign grows", () => {
  /** A fight in which each named hero falls into Mortal Peril once per injury and survives with it (healed by one rest). */
  async function perilFight(campaignId: string, name: string, heroes: { id: string; name: string }[], injuries: { hero: string; injury: string }[], goblinId: string) {
    const encounter = await ok('encounters:create', { campaignId, name });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: heroes.map((h) => h.id), npcs: [{ templateId: goblinId, count: 1 }] });
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    const ids = Object.fromEntries(started.view.order.map((x) => [x.name, x.id])) as Record<string, string>;
    for (const { hero, injury } of injuries) {
      await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: ids[hero], amount: 20, source: 'a trap' } });
      await ok('encounters:append', { id: encounter.id, event: { type: 'RESOLVE_PERIL', combatantId: ids[hero], choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: injury, category: 'speed', baseRoll: 1 } } });
    }
    await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' } });
  }

  /** What one call of the history parses (JSON.parse calls and characters) and the reply. */
  async function parsedBy(id: string) {
    const json = countJsonCalls();
    try {
      const history = await ok('characters:history', { id });
      return { calls: json.parses, characters: json.parsedCharacters, history };
    } finally {
      json.restore();
    }
  }

  it('parses only what its newest 200 items and its records sent show, however long the campaign has run', async () => {
    const campaign = await ok('campaigns:create', { name: 'Long road', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const wren = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Wren', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    // Each stretch the same: a fight in which Berrik takes two injuries and Wren one (their records and carry rows
    // side by side), a day, and a rest each that heals them. Berrik's history gains six items a stretch: after 34
    // its newest 200 items and its records sent (the newest 24 healed) are alike at any length.
    let stretches = 0;
    const travel = async (count: number) => {
      for (const end = stretches + count; stretches < end; stretches++) {
        await perilFight(campaign.id, `Ambush ${stretches + 1}`, [berrik, wren], [
          { hero: 'Berrik', injury: `Cut ${stretches + 1}` }, { hero: 'Wren', injury: `Graze ${stretches + 1}` }, { hero: 'Berrik', injury: `Bruise ${stretches + 1}` },
        ], goblin.id);
        await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
        await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
        await ledger(campaign.id, { type: 'REST', characterId: wren.id });
      }
    };
    await travel(36);
    const shorter = await parsedBy(berrik.id);
    await travel(18);
    const longer = await parsedBy(berrik.id);
    expect(longer.history.itemCount - shorter.history.itemCount).toBe(18 * 6);
    expect(longer.history.items.map((i) => i.kind)).toEqual(shorter.history.items.map((i) => i.kind));
    expect(longer.history.recordCounts.healed - shorter.history.recordCounts.healed).toBe(18 * 2);
    // Half as long again, and not one more JSON.parse: the entries and records it does not send are not parsed
    // (it parsed each of Berrik's rests' lines, subjects and treated records before: 54 more here).
    expect(longer.calls).toBe(shorter.calls);
    expect(longer.characters).toBeLessThan(shorter.characters * 1.1);
  }, 120_000);
});

describe("a character's history of hundreds of fights", () => {
  it('reads as many of its records and carry-overs after 570 fights as after 420: it counts them where they lie and reads the newest', async () => {
    const campaign = await ok('campaigns:create', { name: 'Long war', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    const first = await fight(campaign.id, 'Ambush', [berrik], goblin.id, 'Cut');
    await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
    await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
    // More fights like the first, written straight into the file (each fight's row, its carry-over onto Berrik and
    // his injury, every other one healed), so that each list the history takes its newest items from runs past them.
    const file = new Database(t.dir.file());
    let fights = 0;
    const more = (count: number) => {
      const copy = (table: string, where: string, key: unknown, change: Record<string, unknown>) => {
        const row = { ...(file.prepare(`SELECT * FROM ${table} WHERE ${where} = ?`).get(key) as Record<string, unknown>), ...change };
        const columns = Object.keys(row);
        file.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`).run(row);
      };
      const injury = file.prepare('SELECT id FROM injuries WHERE source_encounter_id = ?').pluck().get(first.id);
      file.transaction(() => {
        for (const end = fights + count; fights < end; fights++) {
          const id = `copy-${String(fights).padStart(4, '0')}`;
          const at = new Date(Date.UTC(2030, 0, 1) + 60_000 * fights).toISOString();
          copy('encounters', 'id', first.id, { id, name: `Ambush ${fights}` });
          file.prepare('INSERT INTO encounter_carry (encounter_id, subject, previous_json, ended_seq, ended_at) VALUES (?, ?, ?, ?, ?)').run(id, `character:${berrik.id}`, '{}', 1, at);
          copy('injuries', 'id', injury, { id: `${id}:injury`, source_encounter_id: id, created_at: at, healed_at: fights % 2 ? at : null });
        }
      })();
    };
    const history = async () => {
      const read = countRowsWhere((sql) => /\b(injuries|encounter_carry)\b/.test(sql));
      try {
        const reply = await ok('characters:history', { id: berrik.id });
        return { read: read.rows, history: reply };
      } finally {
        vi.restoreAllMocks();
      }
    };
    try {
      more(420);
      const shorter = await history();
      more(150);
      const longer = await history();
      // Each fight more is three items more (gained, carried, and every other one healed twice over)...
      expect(longer.history.itemCount - shorter.history.itemCount).toBe(150 * 2 + 75);
      expect(longer.history.recordCounts.open - shorter.history.recordCounts.open).toBe(75);
      // ... and not one row more is read (it read every record and every carry row before: 932 rows, then 1,232).
      expect(longer.read).toBe(shorter.read);
      // The newest and the counts read so are those of the whole history.
      const all = await ok('characters:history', { id: berrik.id, allItems: true, allRecords: true });
      expect(all.items).toHaveLength(longer.history.itemCount);
      expect(longer.history.items).toEqual(all.items.slice(-200));
      expect(longer.history.recordCounts).toEqual({ open: all.records.filter((r) => !r.healed).length, healed: all.records.filter((r) => r.healed).length });
    } finally {
      file.close();
    }
  }, 60_000);
});

describe("a character's history of hundreds of healings", () => {
  it('shows the healings among its newest items as their index holds them: it reads by their key only the records it sends', async () => {
    const campaign = await ok('campaigns:create', { name: 'Field hospital', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    const first = await fight(campaign.id, 'Ambush', [berrik], goblin.id, 'Cut');
    // 250 records more like the first, written straight into the file, each healed after everything else happened:
    // the newest 200 items are healings.
    const file = new Database(t.dir.file());
    try {
      const injury = file.prepare('SELECT * FROM injuries WHERE source_encounter_id = ?').get(first.id) as Record<string, unknown>;
      const insert = file.prepare(`INSERT INTO injuries (${Object.keys(injury).join(', ')}) VALUES (${Object.keys(injury).map((c) => `@${c}`).join(', ')})`);
      file.transaction(() => {
        for (let n = 0; n < 250; n++) {
          insert.run({ ...injury, id: `${String(injury['id'])}-${n}`, name: `Cut ${n}`, healed_at: new Date(Date.UTC(2030, 0, 1) + 60_000 * n).toISOString(), day_healed: 2 + (n % 3) });
        }
      })();
    } finally {
      file.close();
    }
    // The rows of the statement that reads what the history shows of records by their key.
    const read = countRowsWhere((sql) => sql === HISTORY_READS.recordDetails);
    let history;
    try {
      history = await ok('characters:history', { id: berrik.id });
    } finally {
      vi.restoreAllMocks();
    }
    const all = await ok('characters:history', { id: berrik.id, allItems: true });
    expect(history.items.map((i) => i.kind)).toEqual(Array(200).fill('healed'));
    expect(history.items).toEqual(all.items.slice(-200));
    expect(history.items.at(-1)).toMatchObject({ text: "Berrik's Cut 249 healed.", day: 2 + (249 % 3), characterId: berrik.id, recordId: `${history.records.at(-1)!.id.replace(/-\d+$/, '')}-249` });
    // The first record open and the newest 24 healed sent, read by their key, and not one healing more (every
    // healing kept was read so before: 203 rows here).
    expect(history.records).toHaveLength(25);
    expect(read.rows).toBe(25);
  });
});

describe("the rests a character's records sent name beyond its newest items", () => {
  it('reads only the opening of their lines, however long they have grown', async () => {
    const campaign = await ok('campaigns:create', { name: 'Siege road', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    const fight = async (name: string, rolls: number[]) => {
      const encounter = await ok('encounters:create', { campaignId: campaign.id, name });
      await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
      const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
      const id = started.view.order.find((x) => x.name === 'Berrik')!.id;
      for (const [k, baseRoll] of rolls.entries()) {
        await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: id, amount: 20, source: 'a trap' } });
        await ok('encounters:append', { id: encounter.id, event: { type: 'RESOLVE_PERIL', combatantId: id, choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: `${name} ${k}`, category: 'speed', baseRoll } } });
      }
      await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' } });
    };
    // Each stretch a siege leaves four injuries of 4 to 16 rests and ten skirmishes one of a rest each, then a day and
    // a rest: the rest heals ten at once (the newest 200 items hold about six rests) and counts every open injury down,
    // so the open injuries sent are treated by rests older than the items kept, whose lines list every open injury.
    let stretches = 0;
    const travel = async (count: number) => {
      for (const end = stretches + count; stretches < end; stretches++) {
        await fight(`Siege ${stretches}`, [4, 4, 4, 4]);
        for (let f = 0; f < 10; f++) await fight(`Skirmish ${stretches}.${f}`, [1]);
        await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
        await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
      }
    };
    /**
     * Characters parsed in one call beyond the items' texts (sent whole), the rows of any entry's whole lines read
     * beyond those of the entries kept among the items, and the rests named but not kept.
     */
    const parsed = async () => {
      const json = countJsonCalls();
      const linesRead = countLinesRead();
      try {
        const history = await ok('characters:history', { id: berrik.id });
        const kept = new Set(history.items.map((i) => i.seq));
        return {
          beyondItems: json.parsedCharacters - history.items.reduce((sum, i) => sum + i.text.length, 0), calls: json.parses,
          namedOnly: history.entries.filter((e) => !kept.has(e.seq)).length,
          linesBeyondItems: linesRead.rows - history.items.filter((i) => i.kind === 'treated' || i.kind === 'recovery' || i.kind === 'clock').length,
        };
      } finally {
        json.restore();
        vi.restoreAllMocks();
      }
    };
    await travel(16);
    const shorter = await parsed();
    await travel(8);
    const longer = await parsed();
    expect(shorter.namedOnly).toBe(10);
    expect(longer.namedOnly).toBe(10);
    expect(longer.calls).toBe(shorter.calls);
    // The same ten rests named beyond the items, their lines longer: not one of their lines is read (the openings
    // they show are kept with each entry), and what is parsed does not grow (it parsed each whole before: 10,546 →
    // 14,172 characters here; then the first 512 characters of each, read from its whole line: 10 rows).
    expect(shorter.linesBeyondItems).toBe(0);
    expect(longer.linesBeyondItems).toBe(0);
    expect(longer.beyondItems).toBeLessThan(shorter.beyondItems * 1.05);
  }, 120_000);
});

/**
 * From now on, counts the rows returned by the statements whose SQL `reads` picks; the caller undoes the spies with
 * vi.restoreAllMocks().
 */
function countRowsWhere(reads: (sql: string) => boolean): { readonly rows: number } {
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as { source: string; all(...args: unknown[]): unknown[]; get(...args: unknown[]): unknown };
  probe.close();
  const count = { rows: 0 };
  const { all, get } = statement;
  vi.spyOn(statement, 'all').mockImplementation(function (this: { source: string }, ...args: unknown[]) {
    const result = all.apply(this, args);
    if (reads(this.source)) count.rows += result.length;
    return result;
  });
  vi.spyOn(statement, 'get').mockImplementation(function (this: { source: string }, ...args: unknown[]) {
    const result = get.apply(this, args);
    if (result !== undefined && reads(this.source)) count.rows += 1;
    return result;
  });
  return count;
}

/** From now on, counts the rows returned by statements that read ledger entries' lines (`log_json`, whole or in part). */
const countLinesRead = () => countRowsWhere((sql) => /\bledger_entries\b/.test(sql) && /\blog_json\b/.test(sql));

describe("the openings of an entry's lines, kept with it (migration 0014)", () => {
  it('cut to what the history shows give what the whole lines give, written alike by the ledger and the migration', () => {
    expect(LINES_LEAD).toBeGreaterThan(ENTRY_TEXT_SENT);
    const db = new Database(':memory:');
    try {
      db.exec(`CREATE TABLE entries (log_json TEXT NOT NULL, lines_lead TEXT NOT NULL DEFAULT '', first_line_lead TEXT)`);
      const write = db.prepare(`INSERT INTO entries (log_json, lines_lead, first_line_lead) VALUES (@log_json, ${ENTRY_LEADS})`);
      // Lines of every length, with quotes, backslashes, control characters, accents and emoji. (A lone surrogate,
      // which no text column holds, comes back from SQLite's JSON as U+FFFD.)
      const alphabet = ['a', 'b', ' ', '"', '\\', '\n', '→', '😀', '\u0001', 'é', 'x'];
      let seed = 1;
      const next = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
      const logs = Array.from({ length: 2000 }, () => Array.from({ length: next(5) }, () => Array.from({ length: next(3) ? next(60) : next(700) }, () => alphabet[next(alphabet.length)]).join('')));
      logs.push([`Berrik rests: ${Array.from({ length: 1000 }, (_, k) => `Cut ${k} → ${k} rests`).join(', ')}`]);
      for (const log of logs) write.run({ log_json: JSON.stringify(log) });
      const written = db.prepare('SELECT log_json, lines_lead, first_line_lead FROM entries ORDER BY rowid').all() as { log_json: string; lines_lead: string; first_line_lead: string | null }[];
      written.forEach(({ lines_lead, first_line_lead }, i) => {
        const log = logs[i]!;
        expect(cutText(lines_lead, ENTRY_TEXT_SENT)).toBe(cutText(log.join(' '), ENTRY_TEXT_SENT));
        expect(cutText(first_line_lead ?? 'REST', ENTRY_TEXT_SENT)).toBe(cutText(log[0] ?? 'REST', ENTRY_TEXT_SENT));
        expect([...lines_lead].length).toBeLessThanOrEqual(LINES_LEAD);
      });
      // The migration's backfill gives every entry the openings the ledger wrote.
      const backfill = /UPDATE ledger_entries SET[\s\S]*?;/.exec(entryLeadsMigration)![0].replace('ledger_entries', 'entries');
      db.exec(`UPDATE entries SET lines_lead = '', first_line_lead = NULL; ${backfill}`);
      expect(db.prepare('SELECT log_json, lines_lead, first_line_lead FROM entries ORDER BY rowid').all()).toEqual(written);
    } finally {
      db.close();
    }
  });

  it('stay right through undo and redo of the entry, and through an export and import of the campaign', async () => {
    const campaign = await ok('campaigns:create', { name: 'Undone rest', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik “the Quoted” 😀', sheet: { endure: 10, navigate: 8 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    for (let n = 1; n <= 12; n++) await fight(campaign.id, `Fight ${n}`, [berrik], goblin.id, `Cut ${n}`, 4);
    await ledger(campaign.id, { type: 'ADVANCE_DAYS', days: 1 });
    await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
    const leads = () => rows(`SELECT seq, state, log_json, lines_lead, first_line_lead FROM ledger_entries WHERE campaign_id = ? ORDER BY seq`, campaign.id);
    const expected = (row: Record<string, unknown>) => {
      const log = JSON.parse(row['log_json'] as string) as string[];
      return { ...row, lines_lead: [...log.join(' ')].slice(0, LINES_LEAD).join(''), first_line_lead: log[0] === undefined ? null : [...log[0]].slice(0, LINES_LEAD).join('') };
    };
    const rest = leads().at(-1)!;
    expect((rest['log_json'] as string).length).toBeGreaterThan(LINES_LEAD * 2);
    const before = await ok('characters:history', { id: berrik.id });
    expect(before.entries.at(-1)!.text.endsWith('…')).toBe(true);
    for (const step of ['ledger:undo', 'ledger:redo', 'ledger:undo'] as const) {
      await ok(step, { campaignId: campaign.id });
      expect(leads().map(expected)).toEqual(leads());
    }
    // Undone, then a new rest in its place: the undone entry dropped, the new one written with its own openings.
    await ledger(campaign.id, { type: 'REST', characterId: berrik.id });
    expect(leads().map((r) => r['state'])).toContain('dropped');
    expect(leads().map(expected)).toEqual(leads());
    await ok('ledger:undo', { campaignId: campaign.id });
    await ok('ledger:redo', { campaignId: campaign.id });
    const after = await ok('characters:history', { id: berrik.id });
    expect(after.entries.map((e) => e.text)).toEqual(before.entries.map((e) => e.text));
    expect(after.records.map((r) => r.treatments.length)).toEqual(before.records.map((r) => r.treatments.length));

    // Through a campaign file: the imported entries get their openings from their lines, as the ledger wrote them.
    const file = await ok('exports:campaign', { id: campaign.id });
    const imported = await ok('imports:campaign', { content: file.content });
    const copied = rows(`SELECT seq, state, log_json, lines_lead, first_line_lead FROM ledger_entries WHERE campaign_id = ? ORDER BY seq`, imported.id);
    expect(copied).toEqual(leads());
    const copy = (await ok('campaigns:get', { id: imported.id })).characters.find((x) => x.role === 'pc')!;
    const copyHistory = await ok('characters:history', { id: copy.id });
    expect(copyHistory.entries.map((e) => e.text)).toEqual(after.entries.map((e) => e.text));
  }, 60_000);
});
