// The demo campaigns through the handler table on a real SQLite file: one per ruleset, each fight played through
// real events to its end with typed dice, carried onto the campaign, followed by a recovery entry; all in one
// transaction, never overwriting, and the same every time.
import { describe, expect, it, vi } from 'vitest';
import { RULESETS } from '../core/rulesets/registry.ts';
import { thrumDemo } from '../core/rulesets/thrum/demo.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, rows } = t;

const CLOCK = ['SESSION_START', 'SESSION_END', 'ADVANCE_DAYS'];

describe('campaigns:demo', () => {
  it('creates one demo campaign per ruleset, each with a party, NPC templates and a finished session-1 fight', async () => {
    const created = await ok('campaigns:demo', {});
    expect(created.map((c) => c.rulesetId)).toEqual(RULESETS.map((r) => r.id));
    expect(created.map((c) => c.name)).toEqual([
      'Demo — Enigma: Nexus Nights', 'Demo — Teams: The Iron Pact', 'Demo — Factions: Murdham Nights',
      'Demo — Cairn-Errant: The Blackwood Barrow', 'Demo — Thrum: Hollow Roads', 'Demo — Any system: The Old Mine (D&D 5e)',
    ]);
    expect((await ok('campaigns:list', {})).map((c) => c.id).sort()).toEqual(created.map((c) => c.id).sort());

    for (const summary of created) {
      // Two party members and one template each; Any system's table of four fights goblins and their boss.
      const [pcs, npcs] = summary.rulesetId === 'any-system' ? [4, 2] : [2, 1];
      expect(summary).toMatchObject({ characterCount: pcs + npcs, encounterCount: 1, archived: false });
      const campaign = await ok('campaigns:get', { id: summary.id });
      expect(campaign.characters.filter((c) => c.role === 'pc')).toHaveLength(pcs);
      expect(campaign.characters.filter((c) => c.role === 'npc')).toHaveLength(npcs);
      // The session was played and ended with a recap; the fight belongs to it.
      expect(campaign.session).toBeNull();
      expect(campaign.sessions).toEqual([expect.objectContaining({ number: 1, endDay: 1, notes: expect.stringMatching(/\w/) })]);
      const [encounter] = campaign.encounters;
      expect(encounter).toMatchObject({ phase: 'ended' });
      const detail = await ok('encounters:get', { id: encounter!.id });
      expect(detail.view.phase).toBe('ended');
      expect(detail.log.length).toBeGreaterThan(5);
      expect(detail.log.filter((l) => l.kind === 'end').length).toBeGreaterThan(0);
      // The party's condition was carried onto the campaign when the fight ended.
      for (const pc of campaign.characters.filter((c) => c.role === 'pc')) expect(Object.keys(pc.condition).length).toBeGreaterThan(0);
    }
  });

  it('types in every die, so nothing in the stored events was rolled by the app', async () => {
    await ok('campaigns:demo', {});
    const payloads = rows('SELECT payload_json FROM encounter_events').map((r) => String(r['payload_json']));
    expect(payloads.length).toBeGreaterThan(50);
    expect(payloads.join('\n')).toContain('"source":"manual"');
    expect(payloads.join('\n')).not.toContain('"source":"app"');
  });

  it('records a recovery action on each campaign ledger after the fight', async () => {
    const created = await ok('campaigns:demo', {});
    const recoveries: Record<string, string[]> = {};
    for (const c of created) {
      const ledger = await ok('ledger:get', { campaignId: c.id });
      const entries = ledger.entries.filter((e) => !CLOCK.includes(e.type));
      expect(entries, c.rulesetId).toHaveLength(1);
      expect(entries[0]!.state).toBe('done');
      recoveries[c.rulesetId] = entries.flatMap((e) => e.log);
    }
    expect(recoveries['enigma']).toEqual([expect.stringMatching(/^Mirah rests: .*Cracked Ribs 2 → 1 rest\.$/)]);
    expect(recoveries['teams']).toEqual([expect.stringMatching(/^Odo rests.*endurance 0 → 12\/12/)]);
    expect(recoveries['factions']).toEqual(["Sybilla's shield is repaired: damaged → intact (the smith at Murdham, 2 silver)."]);
    expect(recoveries['cairn-errant']).toEqual([expect.stringMatching(/^Hollis rests the night somewhere safe: HP 1 → 4, Fatigue 1 → 0/)]);
    expect(recoveries['thrum']).toEqual([expect.stringMatching(/^Vesper spends a day of Downtime: Stress Tolerance 5 → 6/)]);
  });

  it('leaves the lasting harm of each fight on the campaign, linked to the event that caused it', async () => {
    const created = await ok('campaigns:demo', {});
    const byRuleset = Object.fromEntries(created.map((c) => [c.rulesetId, c.id]));
    const injuries = rows('SELECT campaign_id, name, source_encounter_id, source_seq, healed_at FROM injuries ORDER BY name');
    expect(injuries.map((i) => [i['campaign_id'], i['name'], i['healed_at'] === null])).toEqual([
      [byRuleset['enigma'], 'Cracked Ribs', true],
      [byRuleset['cairn-errant'], 'Light burns', true],
      [byRuleset['any-system'], 'Scimitar gash', false],
      [byRuleset['factions'], 'Shield damaged', false],
    ]);
    for (const injury of injuries) expect(injury['source_seq']).toEqual(expect.any(Number));
    const enigma = await ok('campaigns:get', { id: byRuleset['enigma']! });
    expect(enigma.party).toEqual({ escalation: null }); // the Rest reset it (R-E20)
    expect(enigma.characters.find((c) => c.name === 'Mirah')!.condition).toMatchObject({ lp: 4 });
  });

  it('makes as many more when called again, never overwriting, and plays the same fights the same way', async () => {
    const first = await ok('campaigns:demo', {});
    const firstEvents = rows('SELECT count(*) AS n FROM encounter_events')[0]!['n'];
    const second = await ok('campaigns:demo', {});
    expect(second.map((c) => c.name)).toEqual(first.map((c) => `${c.name} (2)`));
    expect(new Set([...first, ...second].map((c) => c.id)).size).toBe(2 * RULESETS.length);
    expect(await ok('campaigns:list', {})).toHaveLength(2 * RULESETS.length);
    expect(rows('SELECT count(*) AS n FROM encounter_events')[0]!['n']).toBe(Number(firstEvents) * 2);

    const logOf = async (campaignId: string) => {
      const [encounter] = (await ok('campaigns:get', { id: campaignId })).encounters;
      return (await ok('encounters:get', { id: encounter!.id })).log.map((l) => `${l.seq} ${l.kind} ${l.text}`);
    };
    for (let i = 0; i < first.length; i += 1) expect(await logOf(second[i]!.id)).toEqual(await logOf(first[i]!.id));
  });

  it('replays every demo fight from its events after a restart to the same state', async () => {
    const created = await ok('campaigns:demo', {});
    const views = [];
    for (const c of created) views.push(await ok('encounters:get', { id: (await ok('campaigns:get', { id: c.id })).encounters[0]!.id }));
    t.reopen();
    for (const before of views) expect(await ok('encounters:get', { id: before.encounter.id })).toEqual(before);
  });

  it('writes nothing when any demo step is refused: all five campaigns are one transaction', async () => {
    const refusedRest = vi.spyOn(thrumDemo, 'recovery').mockReturnValue([{ type: 'DOWNTIME', characterId: 'nobody', days: 1 }]);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const envelope = await t.app.dispatch('campaigns:demo', {});
      expect(envelope).toEqual({ error: { message: 'Something went wrong and nothing was changed. The details are in the app log.', kind: 'internal' } });
      expect(String(quiet.mock.calls[0]?.[1])).toMatch(/The thrum demo was refused: /);
    } finally {
      refusedRest.mockRestore();
      quiet.mockRestore();
    }
    for (const table of ['campaigns', 'characters', 'encounters', 'encounter_events', 'ledger_entries', 'injuries', 'sessions']) {
      expect(rows(`SELECT count(*) AS n FROM ${table}`), table).toEqual([{ n: 0 }]);
    }
    // The app is still usable afterwards.
    expect(await ok('campaigns:demo', {})).toHaveLength(RULESETS.length);
  });

  it('refuses input it does not take', async () => {
    expect(await t.refused('campaigns:demo', { count: 2 })).toBe('The request has fields this app does not know: count.');
    expect(rows('SELECT count(*) AS n FROM campaigns')).toEqual([{ n: 0 }]);
  });
});
