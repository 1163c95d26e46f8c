// Crash safety (issue 10): a separate Node process appending GM events and ledger entries through the real handler
// table is killed with SIGKILL at random moments, again and again on one file; after every kill nothing it
// acknowledged is lost, nothing half-written is visible, and the resumed fight equals a fresh replay and what the
// process last reported. `npm run crash-test` runs the same harness for 200+ kills (docs/reliability.md).
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { openApp } from './app.ts';
import { checkDatabase } from './testing/crash-check.ts';
import { buildCrashChild, runCrashTest } from './testing/crash-run.ts';

let dir: TempDir;
beforeAll(() => {
  dir = tempDir('gmw-crash-');
});
afterAll(() => dir.remove());

describe('killing the app mid-write', () => {
  it('loses no acknowledged write and shows no half-written one after 8 SIGKILLs', { timeout: 120_000 }, async () => {
    const childScript = await buildCrashChild(fileURLToPath(new URL('../dist/crash/crash-child-vitest.cjs', import.meta.url)));
    const seed = Math.floor(Math.random() * 2 ** 31);
    const figures = await runCrashTest({ databasePath: dir.file(), childScript, kills: 8, seed, minDelayMs: 5, maxDelayMs: 150 });
    const context = `seed ${seed}: ${figures.problems.slice(0, 5).join(' | ')}`;
    expect(figures.kills, context).toBe(8);
    expect(figures.acknowledged, context).toBeGreaterThan(0);
    expect(figures.found, context).toBe(figures.acknowledged);
    expect(figures.lost, context).toBe(0);
    expect(figures.integrityFailures, context).toBe(0);
    expect(figures.problems, context).toEqual([]);
    expect(figures.maxCommittedNotAcknowledged, context).toBeLessThanOrEqual(1);
    expect(figures.eventRows, context).toBeGreaterThan(0);
  });
});

/** A fight with 60 events (a snapshot at 50), an injury linked to its event, and ledger entries. */
async function fightFile(path: string): Promise<void> {
  const app = openApp({ databasePath: path, transport: 'cli', version: 'test' });
  const ok = async (name: string, input: unknown) => {
    const envelope = await app.dispatch(name, input);
    if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
    return envelope.result as never;
  };
  try {
    const campaign: { id: string } = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
    const pc: { id: string } = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10 } });
    const npc: { id: string } = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    const encounter: { id: string } = await ok('encounters:create', { campaignId: campaign.id, name: 'Gate' });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [pc.id], npcs: [{ templateId: npc.id, count: 1 }] });
    const started: { view: { order: { id: string; name: string }[] } } = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    const berrik = started.view.order.find((c) => c.name === 'Berrik')!.id;
    await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: berrik, amount: 10, source: 'trap' } });
    await ok('encounters:append', { id: encounter.id, event: { type: 'RESOLVE_PERIL', combatantId: berrik, choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 2 } } });
    for (let i = 0; i < 56; i += 1) await ok('encounters:append', { id: encounter.id, event: i % 7 === 0 ? { type: 'RAISE_ESCALATION', by: 1, source: 'drums' } : { type: 'END_TURN' } });
    await ok('ledger:append', { campaignId: campaign.id, event: { type: 'ADVANCE_DAYS', days: 1 } });
    await ok('ledger:append', { campaignId: campaign.id, event: { type: 'ADVANCE_DAYS', days: 2 } });
  } finally {
    app.close();
  }
}

describe('the crash check', () => {
  let pristine: string;
  beforeAll(async () => {
    pristine = dir.file('pristine.sqlite');
    await fightFile(pristine);
  });
  /** A copy of the fight with one change made past the app, as a torn write would leave it. */
  const tampered = (name: string, sql: string) => {
    const path = dir.file(`${name}.sqlite`);
    const source = new Database(pristine);
    source.pragma('wal_checkpoint(TRUNCATE)');
    source.close();
    copyFileSync(pristine, path);
    const db = new Database(path);
    db.exec(sql);
    db.close();
    return path;
  };

  it('passes a file the app wrote', async () => {
    const check = await checkDatabase(pristine);
    expect(check.integrity).toBe(true);
    expect(check.problems).toEqual([]);
    expect([...check.encounters.values()].map((e) => e.eventCount)).toEqual([60]);
    expect(check.injuryRows).toBe(1);
  });

  it.each([
    ['an event without its head', "INSERT INTO encounter_events (encounter_id, seq, type, payload_json, log_json, recorded_at) SELECT encounter_id, 61, type, payload_json, log_json, recorded_at FROM encounter_events WHERE seq = 60", /head says 60 events, 61 are stored/],
    ['a head without its event', 'DELETE FROM encounter_events WHERE seq = 60', /head says 60 events, 59 are stored/],
    ['a hole in the events', 'UPDATE encounter_events SET seq = 70 WHERE seq = 30; UPDATE encounters SET event_count = 60', /event seqs run 1\.\.70 over 60 rows/],
    ['a snapshot at the wrong seq', 'UPDATE encounter_snapshots SET seq = 49', /snapshots at \[49\], expected \[50\]/],
    ['a hole in the ledger', 'UPDATE ledger_entries SET seq = seq + 5 WHERE seq = (SELECT max(seq) FROM ledger_entries)', /ledger seqs run 1\.\.\d+ over \d+ entries/],
    ['an injury whose event is gone', 'UPDATE injuries SET source_seq = 99', /points at event 99, which is not stored/],
    ['a snapshot that disagrees with the events', "UPDATE encounter_snapshots SET snapshot_json = json_set(snapshot_json, '$.machine.context.escalation', 9)", /resumed view differs from a fresh replay/],
    ['a head whose round disagrees with the events', 'UPDATE encounters SET round = 99', /replay gives running round \d+/],
  ])('reports %s', async (name, sql, problem) => {
    const check = await checkDatabase(tampered(name.replaceAll(' ', '-'), sql));
    expect(check.problems.join('\n')).toMatch(problem);
  });
});
