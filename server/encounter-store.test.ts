// The in-memory marks (server/encounter-store.ts, MARKS_KEPT): an undo goes back to the mark before it instead
// of replaying from the stored snapshot, so every state it gives must equal a fresh replay of the stored events, through
// long runs of undo, redo and new events that cross marks and snapshots.
import { describe, expect, it, vi } from 'vitest';
import type { HandlerResults } from '../core/api/contract.ts';
import { EncounterEngine } from '../core/encounter/kernel.ts';
import type { EncounterInput, GmEvent } from '../core/encounter/types.ts';
import { rulesFor } from './encounter-store.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok } = t;
type Detail = HandlerResults['encounters:get'];

/** The view a fresh engine gives after replaying every stored event from the start (no snapshot, no mark). */
function freshView(encounterId: string) {
  const [row] = t.rows('SELECT ruleset_id, input_json FROM encounters WHERE id = ?', encounterId) as { ruleset_id: string; input_json: string }[];
  const events = t.rows('SELECT payload_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq', encounterId).map((r) => JSON.parse(r['payload_json'] as string) as GmEvent);
  return EncounterEngine.resume(rulesFor(row!.ruleset_id), JSON.parse(row!.input_json) as EncounterInput, undefined, events).view();
}

async function enigmaFight(): Promise<{ id: string; detail: Detail; ashId: string }> {
  const campaign = await ok('campaigns:create', { name: 'Marks', rulesetId: 'enigma' });
  const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Crossing' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 5 }] });
  await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
  return { id: encounter.id, detail: await ok('encounters:append', { id: encounter.id, event: { type: 'START' } }), ashId: ash.id };
}

describe('undo from the in-memory marks', () => {
  it('every undo, redo and new event across marks and the stored snapshot equals a fresh replay', async () => {
    const { id } = await enigmaFight();
    let d: Detail | undefined;
    // 70 events: damage and turns, past the marks at 8, 16, … and the stored snapshot at 50.
    for (let i = 0; i < 67; i++) {
      const view = (d ?? (await ok('encounters:get', { id }))).view;
      const goblin = view.order.find((c) => c.side === 'gm' && c.status !== 'removed')!;
      d = await ok('encounters:append', { id, event: i % 3 === 0 ? { type: 'APPLY_DAMAGE', targetId: goblin.id, amount: 1, source: 'test' } : { type: 'END_TURN' } });
    }
    expect(d!.encounter.eventCount).toBe(70);
    const seen: number[] = [];
    // Undo 30 (crossing the snapshot at 50 and four marks), checking each state; redo 10; undo 5; new events.
    for (let i = 0; i < 30; i++) {
      d = await ok('encounters:undo', { id });
      expect(d.view).toEqual(freshView(id));
      seen.push(d.encounter.eventCount);
    }
    expect(seen.at(-1)).toBe(40);
    for (let i = 0; i < 10; i++) {
      d = await ok('encounters:redo', { id });
      expect(d.view).toEqual(freshView(id));
    }
    for (let i = 0; i < 5; i++) {
      d = await ok('encounters:undo', { id });
      expect(d.view).toEqual(freshView(id));
    }
    for (let i = 0; i < 12; i++) {
      d = await ok('encounters:append', { id, event: { type: 'END_TURN' } });
      d = i % 4 === 3 ? await ok('encounters:undo', { id }) : d;
      expect(d.view).toEqual(freshView(id));
    }
    // A restart (no marks, no warm engine) resumes to the same view.
    const before = d!.view;
    t.reopen();
    expect((await ok('encounters:get', { id })).view).toEqual(before);
  });

  it('after a restart, undoing the events appended since goes back to marks: nothing is resumed or replayed', async () => {
    const { id } = await enigmaFight();
    for (let i = 0; i < 5; i++) await ok('encounters:append', { id, event: { type: 'END_TURN' } });
    t.reopen();
    await ok('encounters:get', { id }); // opened cold: resumed once, from the stored events
    for (let i = 0; i < 3; i++) await ok('encounters:append', { id, event: { type: 'END_TURN' } });
    const resume = vi.spyOn(EncounterEngine, 'resume');
    const at = vi.spyOn(EncounterEngine, 'at');
    try {
      for (let i = 0; i < 3; i++) expect((await ok('encounters:undo', { id })).view).toEqual(freshView(id));
      // freshView resumes on purpose (once per check); the store itself did not.
      expect(resume).toHaveBeenCalledTimes(3);
      // Each undo went back to a mark with the input the engine before it had: none read and parsed it again.
      expect(at).toHaveBeenCalledTimes(3);
      expect(new Set(at.mock.calls.map(([, input]) => input)).size).toBe(1);
    } finally {
      resume.mockRestore();
      at.mockRestore();
    }
  });
});

describe('a runner write answers from what it stored', () => {
  /** The log lines stored with event `seq`, as the file holds them. */
  const storedLines = (id: string, seq: number) =>
    (JSON.parse((t.rows('SELECT log_json FROM encounter_events WHERE encounter_id = ? AND seq = ?', id, seq)[0]!['log_json']) as string) as { text: string }[]).map((line) => ({ ...line, seq }));

  it('the reply carries the new event\'s stored lines, overrides included, and the undo label its first line', async () => {
    const { id, detail, ashId } = await enigmaFight();
    const ash = detail.view.order.find((c) => c.side === 'party')!;
    const goblin = detail.view.order.find((c) => c.side === 'gm')!;
    let shown: Detail = detail;
    const since = () => ({ eventCount: shown.encounter.eventCount, version: shown.encounter.updatedAt });
    const events: { event: GmEvent; carryAdjust?: { characterId: string; key: string; value: number }[]; carryReason?: string }[] = [
      { event: { type: 'APPLY_DAMAGE', targetId: goblin.id, amount: 2, source: 'a rock' } as GmEvent },
      { event: { type: 'END_TURN' } as GmEvent },
      { event: { type: 'APPLY_DAMAGE', targetId: ash.id, amount: 1, source: 'a claw' } as GmEvent },
      { event: { type: 'END_COMBAT', outcome: 'Victory' } as GmEvent, carryAdjust: [{ characterId: ashId, key: 'lp', value: 7 }], carryReason: 'a draught' },
    ];
    for (const write of events) {
      shown = await ok('encounters:append', { id, ...write, since: since() });
      const seq = shown.encounter.eventCount;
      expect(shown.logAfter).toBe(seq - 1);
      expect(shown.log).toEqual(storedLines(id, seq));
      expect(shown.undoLabel).toBe(storedLines(id, seq)[0]!.text);
    }
    // The ending's overrides were stored with it, and the reply showed them.
    expect(shown.log.map((line) => line.text).join('\n')).toContain('a draught');
    // An undo shows no new line; its label is the event before's first line, read from the file.
    shown = await ok('encounters:undo', { id, since: since() });
    expect(shown.log).toEqual([]);
    expect(shown.undoLabel).toBe(storedLines(id, shown.encounter.eventCount)[0]!.text);
    // A redo (of the ending: confirmed, as after its review) stores the same lines again, and answers with them.
    shown = await ok('encounters:redo', { id, since: since(), confirm: true });
    expect(shown.log).toEqual(storedLines(id, shown.encounter.eventCount));
    expect(shown.log.map((line) => line.text).join('\n')).toContain('a draught');
  });
});
