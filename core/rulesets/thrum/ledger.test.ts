// Thrum's recovery between fights through the campaign ledger (RULES.md §5.5, §5.6, R-H9, R-H17): parsed, applied and
// folded as the ledger does it.
import { describe, expect, it } from 'vitest';
import { applyEvent, refusalOf } from '../../ledger/testing.ts';
import type { CampaignWorld, LedgerCharacter, LedgerRecord } from '../../ledger/types.ts';
import { resolveOptions, type OptionValues } from '../options.ts';
import { normalizeSheet } from '../sheet.ts';
import { thrumRecovery as rules } from './ledger.ts';
import { thrumOptions } from './options.ts';
import { thrumSheet } from './sheet.ts';

/** A Wound record as the encounter's consequences write it. */
const woundRecord = (characterId: string, n: number): LedgerRecord => ({
  id: `enc1:${characterId}.wound${n}`, characterId, name: `Wound ${n} of 3`, category: 'wound',
  data: { kind: 'wound', number: n, round: 4, outOfAction: n >= 3 }, dayGained: 2,
});

function pc(id: string, name: string, state: Record<string, unknown> = {}, wounds = 0, sheet: Record<string, unknown> = {}): LedgerCharacter {
  const records = Array.from({ length: wounds }, (_, i) => woundRecord(id, i + 1));
  return { id, name, role: 'pc', sheet: normalizeSheet(thrumSheet, { baseFatigueTolerance: 5, fatigueTolerance: 5, baseStressTolerance: 4, stressTolerance: 4, ...sheet }), state, records };
}

function world(characters: LedgerCharacter[], options: OptionValues = {}, day = 3): CampaignWorld {
  return { day, options: resolveOptions(thrumOptions, options), party: {}, characters };
}

/** Ana after a hard fight: Fatigue Tolerance 0 (R-H9), Stress Tolerance lowered, two Wounds. */
const worn = (extra: Record<string, unknown> = {}) => pc('ana', 'Ana', { fatigueTolerance: 0, stressTolerance: 2, wounds: 2, stillIncapacitated: true, outOfAction: false, ...extra }, Number(extra['wounds'] ?? 2));

const run = (w: CampaignWorld, raw: unknown) => applyEvent(rules, w, raw);

const refusal = (w: CampaignWorld, raw: unknown) => refusalOf(rules, w, raw);

const stateOf = (w: CampaignWorld, id = 'ana') => w.characters.find((c) => c.id === id)!.state;
const recordsOf = (w: CampaignWorld, id = 'ana') => w.characters.find((c) => c.id === id)!.records.map((r) => r.id);
const stats = (w: CampaignWorld, id = 'ana') => Object.fromEntries(rules.card(w, id).stats.map((s) => [s.label, s.value]));

describe('Downtime (R-H17, R-H9)', () => {
  it('by default restores both tolerances to base, heals the newest Wound and ends the lingering incapacity', () => {
    const w = world([worn({ notes: 'kept' })]);
    expect(rules.card(w, 'ana').out).toBe('Incapacitated: Fatigue Tolerance 0 until Downtime (R-H9)');
    const { world: after, log, outcome } = run(w, { type: 'DOWNTIME', characterId: 'ana', days: 1 });
    expect(log).toEqual(['Ana spends a day of Downtime: Fatigue Tolerance 0 → 5; Stress Tolerance 2 → 4; Wounds 2 → 1; Ana is no longer Incapacitated (R-H17, R-H9).']);
    expect(stateOf(after)).toEqual({
      fatigueTolerance: 5, stressTolerance: 4, wounds: 1, stillIncapacitated: false, outOfAction: false, notes: 'kept', recoveryDay: { day: 3, downtime: true },
    });
    expect(outcome.change.records).toEqual([{ id: 'enc1:ana.wound2', data: w.characters[0]!.records[1]!.data, healed: true }]);
    expect(recordsOf(after)).toEqual(['enc1:ana.wound1']);
    expect(stats(after)).toEqual({ 'Fatigue Tolerance': '5/5', 'Stress Tolerance': '4/4', Wounds: '1/3', 'Downtime today': '1/1' });
    expect(rules.card(after, 'ana').out).toBeNull();
  });

  it('is taken once a day: a second Downtime the same day is refused, the next day it works', () => {
    const w = world([worn()]);
    const once = run(w, { type: 'DOWNTIME', characterId: 'ana', days: 1 }).world;
    expect(refusal(once, { type: 'DOWNTIME', characterId: 'ana', days: 1 })).toBe('Ana has already had Downtime today (day 3): move the campaign clock on first.');
    const next = run({ ...once, day: 4 }, { type: 'DOWNTIME', characterId: 'ana', days: 1 });
    expect(next.log).toEqual(['Ana spends a day of Downtime: Wounds 1 → 0 (R-H17).']);
    expect(recordsOf(next.world)).toEqual([]);
    expect(refusal({ ...next.world, day: 5 }, { type: 'DOWNTIME', characterId: 'ana', days: 1 })).toBe('Ana has nothing for Downtime to restore: tolerances at base and no Wounds.');
  });

  it('heals every Wound with baseAndAllWounds, and the card says so', () => {
    const w = world([worn()], { downtimeRestores: 'baseAndAllWounds' });
    expect(rules.card(w, 'ana').records.map((r) => r.status)).toEqual(['heals at the next Downtime (R-H17)', 'heals at the next Downtime (R-H17)']);
    const { world: after, outcome } = run(w, { type: 'DOWNTIME', characterId: 'ana', days: 1 });
    expect(outcome.change.records!.map((r) => r.id)).toEqual(['enc1:ana.wound2', 'enc1:ana.wound1']);
    expect(stateOf(after)['wounds']).toBe(0);
  });

  it('restores one tolerance point a day with onePointPerDay', () => {
    const w = world([worn()], { downtimeRestores: 'onePointPerDay' });
    expect(rules.card(w, 'ana').records).toEqual([
      { id: 'enc1:ana.wound1', name: 'Wound 1 of 3', category: 'wound', status: '2 Downtimes to go (R-H17)' },
      { id: 'enc1:ana.wound2', name: 'Wound 2 of 3', category: 'wound', status: 'heals at the next Downtime (R-H17)' },
    ]);
    const { log, world: after } = run(w, { type: 'DOWNTIME', characterId: 'ana', days: 2 });
    expect(log).toEqual(['Ana spends 2 days of Downtime: Fatigue Tolerance 0 → 2; Stress Tolerance 2 → 4; Wounds 2 → 1; Ana is no longer Incapacitated (R-H17, R-H9).']);
    expect(stats(after)['Fatigue Tolerance']).toBe('2/5');
  });

  it('the whole party takes Downtime; those with nothing to restore or gone for good are skipped', () => {
    const w = world([
      worn(),
      pc('bob', 'Bob'),
      pc('cal', 'Cal', { wounds: 3, outOfAction: true, outOfActionOutcome: { outcome: 'dead', day: 2 } }, 3),
    ]);
    const { log, outcome } = run(w, { type: 'PARTY', action: { type: 'DOWNTIME', days: 1 }, characterIds: ['ana', 'bob', 'cal'] });
    expect(log).toEqual([
      'Ana spends a day of Downtime: Fatigue Tolerance 0 → 5; Stress Tolerance 2 → 4; Wounds 2 → 1; Ana is no longer Incapacitated (R-H17, R-H9).',
      'Skipped: Bob has nothing for Downtime to restore: tolerances at base and no Wounds.',
      'Skipped: Cal is dead (three Wounds, day 2): Downtime restores nothing to the dead.',
    ]);
    expect(outcome.change.characters!.map((c) => c.id)).toEqual(['ana']);
    expect(refusal(w, { type: 'PARTY', action: { type: 'RESTORE', by: 'item', source: 'x', fatigue: 1, stress: 0, wounds: 0 }, characterIds: ['ana'] }))
      .toBe('"RESTORE" cannot be taken by the whole party at once.');
  });
});

describe('three Wounds (§5.5)', () => {
  const down = (outcome?: Record<string, unknown>) => pc('ana', 'Ana', { wounds: 3, outOfAction: true, ...(outcome ? { outOfActionOutcome: outcome } : {}) }, 3);

  it('take a character out of action until a Wound heals; the table records what they mean', () => {
    const w = world([down()], {}, 5);
    expect(rules.card(w, 'ana').out).toBe('Out of action: three Wounds');
    expect(rules.card(w, 'ana').marks).toEqual(['Three Wounds: the table decides what they mean (§5.5)']);
    expect(rules.card(w, 'ana').stats.find((s) => s.label === 'Wounds')).toEqual({ label: 'Wounds', value: '3/3', tone: 'bad' });
    const coma = run(w, { type: 'OUT_OF_ACTION', characterId: 'ana', outcome: 'coma', note: 'the healers of Esk watch her' });
    expect(coma.log).toEqual(['Three Wounds leave Ana in a coma (day 5): the healers of Esk watch her; Downtime that heals a Wound can bring them back.']);
    expect(rules.card(coma.world, 'ana').marks).toEqual(['Three Wounds: in a coma since day 5 (the healers of Esk watch her)']);
    const back = run({ ...coma.world, day: 6 }, { type: 'DOWNTIME', characterId: 'ana', days: 1 });
    expect(back.log).toEqual(['Ana spends a day of Downtime: Wounds 3 → 2; Ana can return to play if the table agrees (R-H17).']);
    expect(stateOf(back.world)).toEqual({ fatigueTolerance: 5, stressTolerance: 4, wounds: 2, stillIncapacitated: false, outOfAction: false, recoveryDay: { day: 6, downtime: true } });
    expect(recordsOf(back.world)).toEqual(['enc1:ana.wound1', 'enc1:ana.wound2']);
    expect(rules.card(back.world, 'ana').out).toBeNull();
  });

  it('once the table rules a character dead, nothing restores them', () => {
    const dead = run(world([down()], {}, 5), { type: 'OUT_OF_ACTION', characterId: 'ana', outcome: 'dead' });
    expect(dead.log).toEqual(['Three Wounds leave Ana dead (day 5).']);
    expect(rules.card(dead.world, 'ana').out).toBe('Dead (three Wounds)');
    expect(refusal(dead.world, { type: 'DOWNTIME', characterId: 'ana', days: 1 })).toBe('Ana is dead (three Wounds, day 5): Downtime restores nothing to the dead.');
    expect(refusal(dead.world, { type: 'RESTORE', characterId: 'ana', by: 'item', source: 'Phoenix feather', fatigue: 0, stress: 0, wounds: 1 }))
      .toBe('Ana is dead (three Wounds, day 5): Phoenix feather (a very powerful item) restores nothing to the dead.');
    expect(refusal(dead.world, { type: 'OUT_OF_ACTION', characterId: 'ana', outcome: 'coma' })).toBe('Ana is dead (three Wounds, day 5): undo that entry if it was a mistake.');
  });

  it('a character who left play is refused Downtime, and nobody with fewer than three Wounds gets an outcome', () => {
    const gone = world([down({ outcome: 'retired', day: 4 })], {}, 7);
    expect(rules.card(gone, 'ana').out).toBe('Left play (three Wounds)');
    expect(refusal(gone, { type: 'DOWNTIME', characterId: 'ana', days: 1 })).toBe('Ana has left play for good (three Wounds, day 4): Downtime no longer applies.');
    expect(refusal(world([worn()]), { type: 'OUT_OF_ACTION', characterId: 'ana', outcome: 'dead' })).toBe('Ana has 2 of 3 Wounds: only three Wounds take a character out of play (§5.5).');
  });
});

describe('a very powerful item or a story objective', () => {
  it('restores what the GM says, up to base; Fatigue Tolerance above 0 ends R-H9\'s incapacity', () => {
    const w = world([worn()]);
    const stressOnly = run(w, { type: 'RESTORE', characterId: 'ana', by: 'objective', source: 'The shrine cleansed', fatigue: 0, stress: 9, wounds: 0 });
    expect(stressOnly.log).toEqual(['The shrine cleansed (a story objective) restores Ana: Stress Tolerance 2 → 4.']);
    expect(rules.card(stressOnly.world, 'ana').out).toBe('Incapacitated: Fatigue Tolerance 0 until Downtime (R-H9)');
    const feather = run(stressOnly.world, { type: 'RESTORE', characterId: 'ana', by: 'item', source: 'Phoenix feather', fatigue: 1, stress: 0, wounds: 1 });
    expect(feather.log).toEqual(['Phoenix feather (a very powerful item) restores Ana: Fatigue Tolerance 0 → 1; Wounds 2 → 1; Ana is no longer Incapacitated.']);
    expect(stateOf(feather.world)).toMatchObject({ fatigueTolerance: 1, stressTolerance: 4, wounds: 1, stillIncapacitated: false });
    expect(recordsOf(feather.world)).toEqual(['enc1:ana.wound1']);
    expect(stats(feather.world)['Fatigue Tolerance']).toBe('1/5');
    expect(stats(feather.world)['Downtime today']).toBe('0/1');
  });

  it('refuses a restoration that restores nothing or names no source', () => {
    const w = world([worn()]);
    expect(refusal(w, { type: 'RESTORE', characterId: 'ana', by: 'item', source: 'Phoenix feather', fatigue: 0, stress: 0, wounds: 0 })).toBe('Say what is restored: Fatigue Tolerance, Stress Tolerance or Wounds.');
    expect(refusal(w, { type: 'RESTORE', characterId: 'ana', by: 'item', source: '  ', fatigue: 1, stress: 0, wounds: 0 })).toBe('Name the item or story objective.');
    expect(refusal(world([pc('ana', 'Ana')]), { type: 'RESTORE', characterId: 'ana', by: 'item', source: 'Elixir', fatigue: 2, stress: 0, wounds: 0 })).toBe('Ana has nothing of that to restore.');
    expect(refusal(w, { type: 'RESTORE', characterId: 'ana', by: 'item', source: 'Elixir', fatigue: 0, stress: 0, wounds: 4 })).toBe('Wounds healed is at most 3.');
  });
});

describe('the stored condition against the sheet', () => {
  it('a sheet marked still incapacitated is recovered once Downtime has written the condition', () => {
    const w = world([pc('ana', 'Ana', {}, 0, { fatigueTolerance: 0, stillIncapacitated: true })]);
    expect(rules.card(w, 'ana').out).toBe('Incapacitated: Fatigue Tolerance 0 until Downtime (R-H9)');
    const after = run(w, { type: 'DOWNTIME', characterId: 'ana', days: 1 }).world;
    expect(rules.card(after, 'ana').out).toBeNull();
  });
});

describe('forms', () => {
  const w = world([worn()]);

  it('offers Downtime, Restore and what three Wounds mean (core/ledger/forms.test.ts checks every form against the schema)', () => {
    expect(rules.forms.map((f) => f.type)).toEqual(['DOWNTIME', 'RESTORE', 'OUT_OF_ACTION']);
  });

  it('offers Downtime to the whole party, with no dice anywhere', () => {
    expect(rules.forms.filter((f) => f.bulk).map((f) => f.type)).toEqual(['DOWNTIME']);
    expect(rules.rollsFor).toBeUndefined();
    expect(rules.daysPassed).toBeUndefined();
    expect(refusal(w, { type: 'DOWNTIME', characterId: 'ana', days: 0 })).toBe('Downtime lasts at least 1 day.');
  });
});
