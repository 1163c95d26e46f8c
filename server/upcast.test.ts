// A ruleset's `upcast` (EncounterRules.upcast) reads stored and imported events of an older shape: parseEvent applies
// it before the ruleset's schema, so a resume, a summary, an export and an import all read today's shape, and a file
// exported before a field was renamed still imports (EXPORT_VERSION stays 1). Real SQLite file; the ruleset whose
// field was renamed is a copy of Enigma's rules whose old APPLY_DAMAGE said `points` where today's says `amount`.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseEvent, RuleRefusal, upcastStored } from '../core/encounter/kernel.ts';
import type { EncounterRules } from '../core/encounter/types.ts';
import { openDatabase } from '../db/connection.ts';
import { useTestApp } from './testing/harness.ts';

const renamed = vi.hoisted(() => ({ enigma: null as EncounterRules | null }));

vi.mock('../core/rulesets/registry.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../core/rulesets/registry.ts')>();
  return {
    ...actual,
    findRuleset: (id: string) => {
      const found = actual.findRuleset(id);
      return found && id === 'enigma' && renamed.enigma ? { ...found, encounter: renamed.enigma } : found;
    },
  };
});

const { findRuleset } = await import('../core/rulesets/registry.ts');
const enigma = findRuleset('enigma')!.encounter;

/** The old APPLY_DAMAGE {points} read as today's {amount}; every other payload as it is. */
function upcast(stored: unknown): unknown {
  if (stored === null || typeof stored !== 'object' || !('type' in stored) || stored.type !== 'APPLY_DAMAGE' || !('points' in stored)) return stored;
  const { points, ...rest } = stored;
  return { ...rest, amount: points };
}
const withUpcast: EncounterRules = { ...enigma, upcast };

const t = useTestApp();
const { ok, rows } = t;

afterEach(() => {
  renamed.enigma = null;
});

/** Ash against a goblin, started, the goblin hit for 3 by the GM (event 3). */
async function fight(): Promise<{ id: string; campaignId: string }> {
  const campaign = await ok('campaigns:create', { name: 'Old shapes', rulesetId: 'enigma' });
  const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Crossing' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 1 }] });
  const goblinId = added.view.order.find((c) => c.side === 'gm')!.id;
  await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: [goblinId] } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: goblinId, amount: 3, source: 'a sling' } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' } });
  return { id: encounter.id, campaignId: campaign.id };
}

const payloads = (id: string) => rows('SELECT payload_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq', id).map((r) => JSON.parse(String(r['payload_json'])) as Record<string, unknown>);

/** Rewrites the stored APPLY_DAMAGE into the old shape, as a database written before the rename holds it. */
function storeOldShape(id: string): void {
  const other = openDatabase(t.dir.file());
  try {
    const row = other.prepare("SELECT seq, payload_json FROM encounter_events WHERE encounter_id = ? AND type = 'APPLY_DAMAGE'").get(id) as { seq: number; payload_json: string };
    const { amount, ...rest } = JSON.parse(row.payload_json) as Record<string, unknown>;
    other.prepare('UPDATE encounter_events SET payload_json = ? WHERE encounter_id = ? AND seq = ?').run(JSON.stringify({ ...rest, points: amount }), id, row.seq);
  } finally {
    other.close();
  }
}

describe("a ruleset's upcast", () => {
  it('reads an old-shaped stored event: the fight resumes, summarizes, exports and undoes as before', async () => {
    const { id } = await fight();
    const before = await ok('encounters:get', { id });
    const summary = await ok('encounters:summary', { id });
    storeOldShape(id);
    expect(payloads(id).find((e) => e['type'] === 'APPLY_DAMAGE')).toMatchObject({ points: 3 });

    // Without the upcast today's schema cannot read it: the fight does not open.
    t.reopen();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const envelope = await t.app.dispatch('encounters:get', { id });
    expect('error' in envelope).toBe(true);
    logged.mockRestore();

    renamed.enigma = withUpcast;
    t.reopen();
    const after = await ok('encounters:get', { id });
    expect(after.view).toEqual(before.view);
    expect(await ok('encounters:summary', { id })).toEqual(summary);
    const exported = JSON.parse((await ok('exports:encounter', { id, format: 'json' })).content) as { events: Record<string, unknown>[] };
    expect(exported.events.find((e) => e['type'] === 'APPLY_DAMAGE')).toMatchObject({ points: 3 });
    // Undo replays the stored events up to the one before the newest.
    const undone = await ok('encounters:undo', { id });
    expect(undone.encounter.eventCount).toBe(before.encounter.eventCount - 1);
  });

  it('reads an import file of the old shape, and stores its events in today\'s shape', async () => {
    const { id, campaignId } = await fight();
    const file = JSON.parse((await ok('exports:encounter', { id, format: 'json' })).content) as { events: Record<string, unknown>[] };
    const old = {
      ...file,
      events: file.events.map((e) => {
        if (e['type'] !== 'APPLY_DAMAGE') return e;
        const { amount, ...rest } = e;
        return { ...rest, points: amount };
      }),
    };
    const content = JSON.stringify(old);
    expect(await t.refused('imports:encounter', { campaignId, content })).toMatch(/APPLY_DAMAGE has no field 'points'/);

    renamed.enigma = withUpcast;
    const imported = await ok('imports:encounter', { campaignId, content });
    expect((await ok('encounters:get', { id: imported.id })).view).toEqual((await ok('encounters:get', { id })).view);
    expect(payloads(imported.id).find((e) => e['type'] === 'APPLY_DAMAGE')).toEqual({ type: 'APPLY_DAMAGE', targetId: expect.any(String), amount: 3, source: 'a sling' });
  });

  it('leaves the schema\'s own refusals as they were (a field it does not take is named with the fields it does)', () => {
    const refusal = (rules: EncounterRules) => {
      try {
        parseEvent(rules, { type: 'APPLY_DAMAGE', targt: 'x', amount: 1, source: 's' });
      } catch (error) {
        if (error instanceof RuleRefusal) return error.message;
        throw error;
      }
      return null;
    };
    expect(refusal(withUpcast)).toMatch(/^APPLY_DAMAGE has no field 'targt'; it takes: .*targetId/);
    expect(refusal(withUpcast)).toBe(refusal(enigma));
  });

  it('gives a stored payload in today\'s shape to readers of its fields (upcastStored), anything else as it was', () => {
    const old = { type: 'APPLY_DAMAGE', targetId: 'g', points: 2, source: 's' };
    expect(upcastStored(withUpcast, old)).toEqual({ type: 'APPLY_DAMAGE', targetId: 'g', amount: 2, source: 's' });
    expect(upcastStored(enigma, old)).toBe(old);
    const end = { type: 'END_TURN' };
    expect(upcastStored(withUpcast, end)).toBe(end);
    expect(upcastStored({ ...enigma, upcast: () => null }, end)).toBe(end);
  });
});
