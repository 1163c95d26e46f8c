// A stored snapshot carries the version of its ruleset's context shape (EncounterRules.rulesVersion): a snapshot
// saved under another version is never resumed from; the fight is replayed from its events and the snapshot
// replaced. A snapshot saved before snapshots carried a version reads as version 1. Real SQLite file; the ruleset's
// newer version is a copy of its rules with `rulesVersion: 2`, handed out by the registry while a test asks for it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EncounterRules } from '../core/encounter/types.ts';
import { openDatabase } from '../db/connection.ts';
import { SNAPSHOT_EVERY } from '../db/encounters.ts';
import { useTestApp } from './testing/harness.ts';

const newer = vi.hoisted(() => ({ enigma: null as EncounterRules | null }));

vi.mock('../core/rulesets/registry.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../core/rulesets/registry.ts')>();
  return {
    ...actual,
    findRuleset: (id: string) => {
      const found = actual.findRuleset(id);
      return found && id === 'enigma' && newer.enigma ? { ...found, encounter: newer.enigma } : found;
    },
  };
});

const { findRuleset } = await import('../core/rulesets/registry.ts');
const enigma = findRuleset('enigma')!.encounter;

const t = useTestApp();
const { ok } = t;

afterEach(() => {
  newer.enigma = null;
});

/** Ash against a goblin, played past the first snapshot; the app then closed. */
async function pastTheSnapshot(): Promise<{ id: string; ashId: string }> {
  const campaign = await ok('campaigns:create', { name: 'Versions', rulesetId: 'enigma' });
  const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Crossing' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 1 }] });
  await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  for (let i = 0; i < SNAPSHOT_EVERY; i++) await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' } });
  const ashId = added.view.order.find((c) => c.name === 'Ash')!.id;
  return { id: encounter.id, ashId };
}

const snapshotJson = (id: string) => t.rows('SELECT snapshot_json FROM encounter_snapshots WHERE encounter_id = ? AND seq = ?', id, SNAPSHOT_EVERY)[0]!['snapshot_json'] as string;

/** Rewrites the stored snapshot behind the app's back, as another program would. */
function rewrite(id: string, change: (stored: Record<string, unknown>) => Record<string, unknown>): void {
  const other = openDatabase(t.dir.file());
  try {
    const stored = JSON.parse(snapshotJson(id)) as Record<string, unknown>;
    other.prepare('UPDATE encounter_snapshots SET snapshot_json = ? WHERE encounter_id = ? AND seq = ?').run(JSON.stringify(change(stored)), id, SNAPSHOT_EVERY);
  } finally {
    other.close();
  }
}

/** The snapshot with Ash renamed in the machine's context: a resume that trusts it shows "Tampered". */
function tampered(ashId: string) {
  return (stored: Record<string, unknown>) => {
    const copy = structuredClone(stored) as { machine: { context: { combatants: Record<string, { name: string }> } } };
    copy.machine.context.combatants[ashId]!.name = 'Tampered';
    return copy;
  };
}

const names = async (id: string) => (await ok('encounters:get', { id })).view.order.map((c) => c.name);

describe('a stored snapshot and the version of its ruleset', () => {
  it('is saved with the ruleset\'s version (1 when the rules name none)', async () => {
    const { id } = await pastTheSnapshot();
    expect(enigma.rulesVersion ?? 1).toBe(1);
    expect(JSON.parse(snapshotJson(id))).toMatchObject({ covers: expect.any(String), rulesVersion: 1, machine: expect.any(Object) });
  });

  it('under the same version, is taken at its word on a read (what the tampered context shows)', async () => {
    const { id, ashId } = await pastTheSnapshot();
    rewrite(id, tampered(ashId));
    t.reopen();
    expect(await names(id)).toContain('Tampered');
  });

  it('under another version, is not resumed from: the fight is replayed from its events and the snapshot rewritten', async () => {
    const { id, ashId } = await pastTheSnapshot();
    const right = JSON.parse(snapshotJson(id)) as { covers: string; machine: unknown };
    rewrite(id, tampered(ashId));
    newer.enigma = { ...enigma, rulesVersion: 2 };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    t.reopen();
    expect(await names(id)).toEqual(['Ash', 'Goblin']);
    const now = JSON.parse(snapshotJson(id)) as { covers: string; machine: unknown; rulesVersion: number };
    expect(now).toEqual({ covers: right.covers, machine: right.machine, rulesVersion: 2 });
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/saved under version 1 of the ruleset's state \(now 2\): it was rebuilt from the events and replaced/));
    logged.mockRestore();
    // Rewritten under version 2, it is now resumed from: the next start leaves it alone.
    t.reopen();
    expect(await names(id)).toEqual(['Ash', 'Goblin']);
    expect(JSON.parse(snapshotJson(id))).toEqual(now);
  });

  it('stored before snapshots carried a version, reads as version 1: trusted under 1, replayed under 2', async () => {
    const { id, ashId } = await pastTheSnapshot();
    rewrite(id, (stored) => {
      const { rulesVersion: _dropped, ...old } = stored;
      return tampered(ashId)(old);
    });
    expect(JSON.parse(snapshotJson(id))).not.toHaveProperty('rulesVersion');
    t.reopen();
    expect(await names(id)).toContain('Tampered');
    newer.enigma = { ...enigma, rulesVersion: 2 };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    t.reopen();
    expect(await names(id)).toEqual(['Ash', 'Goblin']);
    expect(JSON.parse(snapshotJson(id))).toMatchObject({ rulesVersion: 2 });
    logged.mockRestore();
  });
});
