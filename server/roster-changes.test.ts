// Events stored with what they changed in the roster (migration 0007, RosterChange in core/export/summary.ts): the
// round summary adds those up instead of replaying every event, and must give exactly what a replay gives. Each
// ruleset's generated fight is played through the handler table (undos and redos among its events), exported with
// the stored changes, then exported again from the same events with the changes removed (as a version before 7
// stored them): the files are the same, byte for byte. An import of the export stores the same changes.
import { describe, expect, it } from 'vitest';
import type { EncounterInput } from '../core/encounter/types.ts';
import type { RosterChange } from '../core/export/summary.ts';
import type { RulesetId } from '../core/rulesets/types.ts';
import { generateFight } from '../bench/fight.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, rows } = t;

const RULESETS: RulesetId[] = ['enigma', 'teams', 'factions', 'cairn-errant', 'thrum'];
const NOW = '2026-11-22T12:00:00.000Z';

async function exports(id: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const format of ['md', 'html', 'json'] as const) files[format] = (await ok('exports:encounter', { id, format })).content;
  files['summary'] = JSON.stringify(await ok('encounters:summary', { id }));
  return files;
}

describe.each(RULESETS)('%s: the summary from stored roster changes', (rulesetId) => {
  it('exports exactly what a replay of every event gives, and stores a change with every event', async () => {
    const campaign = await ok('campaigns:create', { name: 'Rosters', rulesetId });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Long fight' });
    const [row] = rows('SELECT input_json FROM encounters WHERE id = ?', encounter.id) as { input_json: string }[];
    const fight = generateFight(rulesetId, 8, 240, 5, [], undefined, JSON.parse(row!.input_json) as EncounterInput);
    for (const [index, event] of fight.events.entries()) {
      await ok('encounters:append', { id: encounter.id, event });
      // Undone and redone now and then: a redo stores its change again.
      if (index % 37 === 36) {
        await ok('encounters:undo', { id: encounter.id });
        // Confirmed: the dice are rolled afresh for each generated fight, and its last event may be the one that
        // ends it (a redo of an ending asks first).
        await ok('encounters:redo', { id: encounter.id, confirm: true });
      }
      // The summary asked for halfway: the fold is kept and given only the events after it.
      if (index === 120) await ok('encounters:summary', { id: encounter.id });
    }
    const stored = rows('SELECT roster_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq', encounter.id) as { roster_json: string | null }[];
    expect(stored.length).toBe(fight.events.length);
    expect(stored.every((r) => r.roster_json !== null)).toBe(true);
    const changes = stored.map((r) => JSON.parse(r.roster_json!) as RosterChange);
    expect(changes.some((c) => c.rows.length > 0), 'some events changed rows').toBe(true);

    // The kept fold (summary halfway, then the rest added) and a fresh one both add up the stored changes.
    const kept = await exports(encounter.id);
    t.reopen({ now: () => NOW });
    const fromChanges = await exports(encounter.id);

    t.app.close();
    const db = new (await import('better-sqlite3')).default(t.dir.file());
    db.prepare('UPDATE encounter_events SET roster_json = NULL WHERE encounter_id = ?').run(encounter.id);
    db.close();
    t.reopen({ now: () => NOW });
    const replayed = await exports(encounter.id);

    expect(fromChanges).toEqual(replayed);
    expect(kept['summary']).toEqual(replayed['summary']);
    const summary = JSON.parse(replayed['summary']!) as { combatants: { taken: number }[] }[];
    expect(summary.some((round) => round.combatants.some((c) => c.taken > 0)), 'someone took harm').toBe(true);

    // An import replays the file's events and stores each one's change as the app does.
    const imported = await ok('imports:encounter', { campaignId: campaign.id, content: replayed['json'] });
    const importedChanges = rows('SELECT roster_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq', imported.id) as { roster_json: string | null }[];
    expect(importedChanges.map((r) => r.roster_json)).toEqual(stored.map((r) => r.roster_json));
    expect(JSON.stringify(await ok('encounters:summary', { id: imported.id }))).toEqual(replayed['summary']);
  });
});
