// Factions' recovery between fights on the campaign ledger (RULES.md §3.6, R-F8, R-F20, R-F22): repairing and
// replacing gear, health set by the GM, the end of a stretch, and the dead who recover nothing.
import { describe, expect, it } from 'vitest';
import { parseRecoveryEvent } from '../../ledger/kernel.ts';
import { applyEvent, refusalOf } from '../../ledger/testing.ts';
import type { CampaignWorld, LedgerCharacter, LedgerRecord } from '../../ledger/types.ts';
import { resolveOptions, type OptionValues } from '../options.ts';
import { normalizeSheet } from '../sheet.ts';
import { factionsEncounter } from './encounter.ts';
import { factions } from './index.ts';
import { factionsRecovery } from './ledger.ts';
import { factionsOptions } from './options.ts';
import { factionsSheet } from './sheet.ts';

function member(id: string, name: string, state: Record<string, unknown> = {}, sheetValues: Record<string, unknown> = {}, records: LedgerRecord[] = []): LedgerCharacter {
  return { id, name, role: 'pc', sheet: normalizeSheet(factionsSheet, sheetValues), state, records };
}

function world(characters: LedgerCharacter[], options: OptionValues = {}, day = 4): CampaignWorld {
  return { day, options: resolveOptions(factionsOptions, options), party: {}, characters };
}

const gearRecord = (id: string, characterId: string, item: string, state: string): LedgerRecord => ({
  id, characterId, name: `${item[0]!.toUpperCase()}${item.slice(1)} ${state}`, category: 'gear', data: { kind: 'gear', item, state }, dayGained: 3,
});

const armed = { hasShield: true, armour: 2 };
/** After a fight: Balthasar's sword damaged, his shield destroyed, dying at 0; Sybilla passed morale; Theobald dead. */
const balthasar = () =>
  member('b', 'Balthasar', { health: 0, incapacitated: true, dying: true, moraleImmune: false, moraleFailed: false, gear: { weapon: 'damaged', shield: 'destroyed', armour: 'intact' }, notes: 'kept' }, armed, [
    gearRecord('r1', 'b', 'weapon', 'damaged'),
    gearRecord('r2', 'b', 'shield', 'destroyed'),
  ]);
const sybilla = () => member('s', 'Sybilla', { health: 4, incapacitated: false, dying: false, moraleImmune: true, moraleFailed: false, gear: { weapon: 'intact', shield: 'none', armour: 'none' } });
const theobald = () => member('t', 'Theobald', { health: 0, incapacitated: true, dying: true, moraleImmune: false, moraleFailed: true, gear: { weapon: 'damaged', shield: 'none', armour: 'none' }, dead: true });

const run = (w: CampaignWorld, raw: unknown) => applyEvent(factionsRecovery, w, raw);

const refusal = (w: CampaignWorld, raw: unknown) => refusalOf(factionsRecovery, w, raw);

const who = (w: CampaignWorld, id: string) => w.characters.find((c) => c.id === id)!;
const stat = (w: CampaignWorld, id: string, label: string) => factionsRecovery.card(w, id).stats.find((s) => s.label === label);
/** What the next fight brings in for the character (the encounter's own reading). */
const nextFight = (w: CampaignWorld, id: string) => factionsEncounter.carriedIn!(who(w, id).state, who(w, id).records.map((r) => r.data));


describe('the forms and the schema', () => {
  it('is wired into the ruleset', () => {
    expect(factions.recovery).toBe(factionsRecovery);
  });

  it('offers repair, replacement, health and the end of a stretch (core/ledger/forms.test.ts checks every form against the schema)', () => {
    expect(factionsRecovery.forms.map((f) => f.type)).toEqual(['REPAIR_GEAR', 'REPLACE_GEAR', 'SET_HEALTH', 'END_STRETCH']);
  });

  it('only the end of a stretch is a whole-party action, and nothing needs dice', () => {
    expect(factionsRecovery.forms.filter((f) => f.bulk).map((f) => f.type)).toEqual(['END_STRETCH']);
    expect(factionsRecovery.rollsFor).toBeUndefined();
  });

  it('refuses malformed events with a sentence', () => {
    expect(() => parseRecoveryEvent(factionsRecovery, { type: 'REST', characterId: 'b' })).toThrow('"REST" is not a recovery action this ruleset knows.');
    expect(() => parseRecoveryEvent(factionsRecovery, { type: 'REPAIR_GEAR', characterId: 'b', item: 'helmet' })).toThrow('The item is the weapon, the shield or the armour.');
    expect(() => parseRecoveryEvent(factionsRecovery, { type: 'REPAIR_GEAR', characterId: 'b', item: 'weapon', note: 'x'.repeat(201) })).toThrow('A note is at most 200 characters.');
    expect(() => parseRecoveryEvent(factionsRecovery, { type: 'SET_HEALTH', characterId: 'b', health: 100 })).toThrow('Health is at most 99.');
    expect(() => parseRecoveryEvent(factionsRecovery, { type: 'SET_HEALTH', characterId: 'b', health: 2.5 })).toThrow('Health is a whole number.');
    expect(() => parseRecoveryEvent(factionsRecovery, { type: 'PARTY', action: { type: 'SET_HEALTH', health: 5 }, characterIds: ['b'] })).toThrow('"SET_HEALTH" cannot be taken by the whole party at once.');
  });
});

describe('repairing gear (§3.6: the chapter gives no repair rules)', () => {
  it('a damaged item is whole again: the stored state and its gear record, healed, with the note of cost and place', () => {
    const w = world([balthasar()]);
    const { log, change, world: after } = run(w, { type: 'REPAIR_GEAR', characterId: 'b', item: 'weapon', note: '12 coins, the smith at Hollow Ford' });
    expect(log).toEqual(["Balthasar's weapon is repaired: damaged → intact (12 coins, the smith at Hollow Ford)."]);
    expect(change.records).toEqual([{ id: 'r1', data: { kind: 'gear', item: 'weapon', state: 'intact', repaired: { day: 4, note: '12 coins, the smith at Hollow Ford' } }, healed: true }]);
    expect(who(after, 'b').state).toEqual({ ...balthasar().state, gear: { weapon: 'intact', shield: 'destroyed', armour: 'intact' } });
    expect(who(after, 'b').records.map((r) => r.id)).toEqual(['r2']);
    expect(stat(after, 'b', 'Weapon')).toEqual({ label: 'Weapon', value: 'ok', tone: 'ok' });
    expect(nextFight(after, 'b')['gear']).toEqual({ weapon: 'intact', shield: 'destroyed', armour: 'intact' });
  });

  it('repairs damage marked on the sheet, with no fight behind it', () => {
    const w = world([member('s', 'Sybilla', {}, { weaponDamaged: true })]);
    expect(stat(w, 's', 'Weapon')).toEqual({ label: 'Weapon', value: 'damaged', tone: 'warn' });
    const { log, world: after } = run(w, { type: 'REPAIR_GEAR', characterId: 's', item: 'weapon' });
    expect(log).toEqual(["Sybilla's weapon is repaired: damaged → intact."]);
    expect(stat(after, 's', 'Weapon')!.value).toBe('ok');
  });

  it('refuses a destroyed item, an undamaged one, a missing one and the dead', () => {
    const w = world([balthasar(), sybilla(), theobald()]);
    expect(refusal(w, { type: 'REPAIR_GEAR', characterId: 'b', item: 'shield' })).toBe("Balthasar's shield was destroyed and has left the inventory: replace it instead.");
    expect(refusal(w, { type: 'REPAIR_GEAR', characterId: 'b', item: 'armour' })).toBe("Balthasar's armour is not damaged.");
    expect(refusal(w, { type: 'REPAIR_GEAR', characterId: 's', item: 'shield' })).toBe('Sybilla has no shield.');
    expect(refusal(w, { type: 'REPAIR_GEAR', characterId: 't', item: 'weapon' })).toBe('Theobald is dead: nothing recovers.');
  });
});

describe('replacing gear', () => {
  it('a destroyed item is replaced, its record healed', () => {
    const { log, change, world: after } = run(world([balthasar()]), { type: 'REPLACE_GEAR', characterId: 'b', item: 'shield', note: 'a round shield, 8 coins' });
    expect(log).toEqual(["Balthasar's shield is replaced: destroyed → intact (a round shield, 8 coins)."]);
    expect(change.records).toEqual([{ id: 'r2', data: { kind: 'gear', item: 'shield', state: 'intact', replaced: { day: 4, note: 'a round shield, 8 coins' } }, healed: true }]);
    expect(stat(after, 'b', 'Shield')).toEqual({ label: 'Shield', value: 'ok', tone: 'ok' });
  });

  it('a record from a fight that never ended is enough to show and replace the item', () => {
    const w = world([member('s', 'Sybilla', {}, armed, [gearRecord('r9', 's', 'armour', 'destroyed')])]);
    expect(stat(w, 's', 'Armour')).toEqual({ label: 'Armour', value: 'destroyed', tone: 'bad' });
    expect(factionsRecovery.card(w, 's').records).toEqual([{ id: 'r9', name: 'Armour destroyed', category: 'gear', status: 'destroyed, gone from the inventory: replace it' }]);
    const { world: after } = run(w, { type: 'REPLACE_GEAR', characterId: 's', item: 'armour' });
    expect(who(after, 's').records).toEqual([]);
    expect(nextFight(after, 's')['gear']).toEqual({ armour: 'intact' });
  });

  it('a damaged item can be replaced too; an intact or missing one cannot', () => {
    const w = world([balthasar(), sybilla()]);
    expect(run(w, { type: 'REPLACE_GEAR', characterId: 'b', item: 'weapon' }).log).toEqual(["Balthasar's weapon is replaced: damaged → intact."]);
    expect(refusal(w, { type: 'REPLACE_GEAR', characterId: 's', item: 'weapon' })).toBe("Sybilla's weapon is intact: there is nothing to replace.");
    expect(refusal(w, { type: 'REPLACE_GEAR', characterId: 's', item: 'armour' })).toBe('Sybilla has no armour on the character sheet: add it there first.');
  });
});

describe('setting health (R-F20; the chapter leaves recovery to the GM)', () => {
  it('health above 0 ends dying and incapacitation; the rest of the state stays', () => {
    const w = world([balthasar()]);
    expect(factionsRecovery.card(w, 'b').out).toBe('Dying: all health lost');
    const { log, world: after } = run(w, { type: 'SET_HEALTH', characterId: 'b', health: 6, note: 'a week at the abbey' });
    expect(log).toEqual(["Balthasar's health is set: 0 → 6/10; no longer dying; no longer incapacitated (a week at the abbey)."]);
    expect(who(after, 'b').state).toEqual({ ...balthasar().state, health: 6, incapacitated: false, dying: false });
    expect(factionsRecovery.card(after, 'b').out).toBeNull();
  });

  it('at 0 health the character is incapacitated', () => {
    const { log, world: after } = run(world([sybilla()]), { type: 'SET_HEALTH', characterId: 's', health: 0 });
    expect(log).toEqual(["Sybilla's health is set: 4 → 0/10; incapacitated at 0 health (R-F20)."]);
    expect(factionsRecovery.card(after, 's').out).toBe('Incapacitated');
  });

  it('is bounded by the maximum on the sheet', () => {
    const w = world([sybilla(), member('h', 'Hild', { health: 3 }, { str: 14, healthMax: 14 })]);
    expect(refusal(w, { type: 'SET_HEALTH', characterId: 's', health: 11 })).toBe("Sybilla's health is a whole number from 0 to 10.");
    expect(run(w, { type: 'SET_HEALTH', characterId: 'h', health: 14 }).log).toEqual(["Hild's health is set: 3 → 14/14."]);
  });

  it('R-F20 Murdham: the GM may keep a character incapacitated above 0; with plain HP that is refused', () => {
    const w = world([balthasar()]);
    expect(run(w, { type: 'SET_HEALTH', characterId: 'b', health: 2, incapacitated: true }).log).toEqual(["Balthasar's health is set: 0 → 2/10; no longer dying; still incapacitated (R-F20)."]);
    const plain = world([balthasar()], { healthModel: 'hpZeroIncapacitates' });
    expect(refusal(plain, { type: 'SET_HEALTH', characterId: 'b', health: 2, incapacitated: true })).toBe('With plain HP (R-F20) Balthasar is incapacitated only at 0 health.');
    expect(run(plain, { type: 'SET_HEALTH', characterId: 'b', health: 2 }).log).toEqual(["Balthasar's health is set: 0 → 2/10; no longer dying; no longer incapacitated."]);
  });

  it('refuses a change that changes nothing, and the dead', () => {
    const w = world([sybilla(), theobald()]);
    expect(refusal(w, { type: 'SET_HEALTH', characterId: 's', health: 4 })).toBe('Sybilla already has 4 health: nothing changes.');
    expect(refusal(w, { type: 'SET_HEALTH', characterId: 't', health: 4 })).toBe('Theobald is dead: nothing recovers.');
  });
});

describe('the end of a stretch (R-F8)', () => {
  it('lifts morale immunity', () => {
    const { log, world: after } = run(world([sybilla()]), { type: 'END_STRETCH', characterId: 's' });
    expect(log).toEqual(['The stretch ends for Sybilla (R-F8): immunity from the passed morale check lapses.']);
    expect(who(after, 's').state).toEqual({ ...sybilla().state, moraleImmune: false, moraleFailed: false });
    expect(stat(after, 's', 'Morale')).toEqual({ label: 'Morale', value: 'no flag', tone: 'ok' });
  });

  it('puts a failed check behind them, even one only on the sheet', () => {
    const w = world([member('h', 'Hild', {}, { moraleFailed: true })]);
    expect(stat(w, 'h', 'Morale')).toEqual({ label: 'Morale', value: 'failed a check this stretch', tone: 'bad' });
    const { log, world: after } = run(w, { type: 'END_STRETCH', characterId: 'h' });
    expect(log).toEqual(['The stretch ends for Hild (R-F8): the failed morale check is behind them.']);
    expect(nextFight(after, 'h')).toMatchObject({ moraleImmune: false, moraleFailed: false });
  });

  it('the whole party: those with a flag are cleared, the others skipped with the reason', () => {
    const w = world([balthasar(), sybilla(), theobald()]);
    const { log, change } = run(w, { type: 'PARTY', action: { type: 'END_STRETCH' }, characterIds: ['b', 's', 't'] });
    expect(log).toEqual([
      'The stretch ends for Sybilla (R-F8): immunity from the passed morale check lapses.',
      'Skipped: Balthasar has no morale flag to clear: no morale check was passed or failed this stretch.',
      'Skipped: Theobald is dead: nothing recovers.',
    ]);
    expect(change.characters!.map((c) => c.id)).toEqual(['s']);
  });

  it('a stretch with no flag anywhere is refused', () => {
    expect(refusal(world([balthasar()]), { type: 'PARTY', action: { type: 'END_STRETCH' }, characterIds: ['b'] })).toBe(
      'Balthasar has no morale flag to clear: no morale check was passed or failed this stretch.',
    );
  });
});

describe('the recovery card', () => {
  it('a fresh character shows the sheet: full health, no morale flag, the weapon ok', () => {
    const card = factionsRecovery.card(world([member('h', 'Hild')]), 'h');
    expect(card).toEqual({
      stats: [{ label: 'Health', value: '10/10', tone: 'ok' }, { label: 'Morale', value: 'no flag', tone: 'ok' }, { label: 'Weapon', value: 'ok', tone: 'ok' }],
      marks: [], records: [], out: null,
    });
  });

  it('shows what the fight left: health, each item with its state, the gear records', () => {
    const card = factionsRecovery.card(world([balthasar()]), 'b');
    expect(card.stats).toEqual([
      { label: 'Health', value: '0/10', tone: 'bad' },
      { label: 'Morale', value: 'no flag', tone: 'ok' },
      { label: 'Weapon', value: 'damaged', tone: 'warn' },
      { label: 'Shield', value: 'destroyed', tone: 'bad' },
      { label: 'Armour', value: 'ok', tone: 'ok' },
    ]);
    expect(card.records).toEqual([
      { id: 'r1', name: 'Weapon damaged', category: 'gear', status: 'damaged: repair or replace it' },
      { id: 'r2', name: 'Shield destroyed', category: 'gear', status: 'destroyed, gone from the inventory: replace it' },
    ]);
  });

  it('shows morale flags, fear immunity, and the dead as out', () => {
    expect(stat(world([member('h', 'Hild', { moraleImmune: true, health: 7 }, { fearImmune: true })]), 'h', 'Morale')).toEqual({ label: 'Morale', value: 'immune until the stretch ends; immune to fear', tone: 'ok' });
    expect(stat(world([member('h', 'Hild', { health: 7 })]), 'h', 'Health')).toEqual({ label: 'Health', value: '7/10', tone: 'warn' });
    expect(stat(world([member('h', 'Hild', { health: 5 })]), 'h', 'Health')!.tone).toBe('bad');
    expect(factionsRecovery.card(world([theobald()]), 't').out).toBe('Dead');
  });
});
