// Teams' recovery between fights on the campaign ledger (RULES.md §2.5, §2.6, R-T26): Rest, Restore, Wake, Repair,
// the cheat-death difficulty that never falls, and the dead who recover nothing.
import { describe, expect, it } from 'vitest';
import { parseRecoveryEvent } from '../../ledger/kernel.ts';
import { applyEvent, refusalOf } from '../../ledger/testing.ts';
import type { CampaignWorld, LedgerCharacter, LedgerRecord } from '../../ledger/types.ts';
import { resolveOptions, type OptionValues } from '../options.ts';
import { normalizeSheet } from '../sheet.ts';
import { teams } from './index.ts';
import { teamsRecovery } from './ledger.ts';
import { teamsOptions } from './options.ts';
import { teamsSheet } from './sheet.ts';

const sheet = (values: Record<string, unknown> = {}) => normalizeSheet(teamsSheet, values);

function member(id: string, name: string, state: Record<string, unknown> = {}, sheetValues: Record<string, unknown> = {}, records: LedgerRecord[] = []): LedgerCharacter {
  return { id, name, role: 'pc', sheet: sheet(sheetValues), state, records };
}

function world(characters: LedgerCharacter[], options: OptionValues = {}, day = 3): CampaignWorld {
  return { day, options: resolveOptions(teamsOptions, options), party: {}, characters };
}

const cheatDeath = (id: string, characterId: string, before: number): LedgerRecord => ({
  id, characterId, name: `Cheated death (difficulty ${before} → ${before + 5})`, category: 'cheatDeath', data: { kind: 'cheatDeath', before, after: before + 5 }, dayGained: 2,
});
const death = (id: string, characterId: string): LedgerRecord => ({ id, characterId, name: 'Died', category: 'death', data: { kind: 'death', cause: 'a failed luck test' }, dayGained: 2 });

/** After a fight: Boudica hurt and unconscious with a worn shield, Fabian tired, Cato dead. */
const boudica = () =>
  member('b', 'Boudica', { endurance: 0, health: 7, stamina: 1, focus: 2, unconscious: true, cheatDeathDifficulty: 15, items: { weapon: { durability: 10 }, shield: { durability: 1 } }, journal: 'kept' }, { shieldName: 'Buckler', shieldBlock: 2 }, [cheatDeath('r1', 'b', 10)]);
const fabian = () => member('f', 'Fabian', { endurance: 9, health: 12, stamina: 0, focus: 4, unconscious: false });
const cato = () => member('c', 'Cato', { endurance: 0, health: 0, stamina: 0, focus: 0, unconscious: true, dead: true });

const run = (w: CampaignWorld, raw: unknown) => applyEvent(teamsRecovery, w, raw);

const refusal = (w: CampaignWorld, raw: unknown) => refusalOf(teamsRecovery, w, raw);

const stat = (w: CampaignWorld, id: string, label: string) => teamsRecovery.card(w, id).stats.find((s) => s.label.startsWith(label));
const stateOf = (w: CampaignWorld, id: string) => w.characters.find((c) => c.id === id)!.state;


describe('the forms and the schema', () => {
  it('is wired into the ruleset', () => {
    expect(teams.recovery).toBe(teamsRecovery);
  });

  it('offers Rest, Restore, Wake and Repair (core/ledger/forms.test.ts checks every form against the schema)', () => {
    expect(teamsRecovery.forms.map((f) => f.type)).toEqual(['REST', 'RESTORE', 'WAKE', 'REPAIR_ITEM']);
  });

  it('offers Rest and Restore to the whole party; neither needs dice', () => {
    expect(teamsRecovery.forms.filter((f) => f.bulk).map((f) => f.type)).toEqual(['REST', 'RESTORE']);
    expect(teamsRecovery.rollsFor).toBeUndefined();
  });

  it('refuses malformed events with a sentence', () => {
    expect(() => parseRecoveryEvent(teamsRecovery, { type: 'NAP', characterId: 'b' })).toThrow('"NAP" is not a recovery action this ruleset knows.');
    expect(() => parseRecoveryEvent(teamsRecovery, { type: 'RESTORE', characterId: 'b', health: 0 })).toThrow('Health restored is at least 1.');
    expect(() => parseRecoveryEvent(teamsRecovery, { type: 'RESTORE', characterId: 'b', focus: 1000 })).toThrow('Focus restored is at most 999.');
    expect(() => parseRecoveryEvent(teamsRecovery, { type: 'REPAIR_ITEM', characterId: 'b', item: 'helmet' })).toThrow('The item is the weapon or the shield.');
    expect(() => parseRecoveryEvent(teamsRecovery, { type: 'REPAIR_ITEM', characterId: 'b', item: 'shield', note: 'x'.repeat(201) })).toThrow('A note is at most 200 characters.');
    expect(() => parseRecoveryEvent(teamsRecovery, { type: 'WAKE', characterId: '' })).toThrow('Choose a character.');
    expect(() => parseRecoveryEvent(teamsRecovery, { type: 'REST', characterId: 'b', extra: 1 })).toThrow();
    expect(() => parseRecoveryEvent(teamsRecovery, { type: 'PARTY', action: { type: 'WAKE' }, characterIds: ['b'] })).toThrow('"WAKE" cannot be taken by the whole party at once.');
  });

  it('refuses someone who is not in the party', () => {
    expect(refusal(world([fabian()]), { type: 'WAKE', characterId: 'zz' })).toBe('That character is not a party member of this campaign.');
  });
});

describe('Rest (R-T26)', () => {
  it('with "reset", every pool goes back to its maximum and the character is conscious; the rest of the state stays', () => {
    const w = world([boudica()], { poolsAfterCombat: 'reset' });
    const { log, world: after, change } = run(w, { type: 'REST', characterId: 'b' });
    expect(log).toEqual(['Boudica rests, pools back to their maximum (R-T26): endurance 0 → 12/12, health 7 → 12/12, stamina 1 → 4/4, focus 2 → 4/4, conscious again.']);
    expect(stateOf(after, 'b')).toEqual({
      endurance: 12, health: 12, stamina: 4, focus: 4, unconscious: false, cheatDeathDifficulty: 15, journal: 'kept',
      items: { weapon: { durability: 10 }, shield: { durability: 1 } },
    });
    expect(change.records).toBeUndefined();
    expect(teamsRecovery.card(after, 'b').out).toBeNull();
  });

  it('with "reset", a rested character has nothing to recover', () => {
    const w = world([member('f', 'Fabian')], { poolsAfterCombat: 'reset' });
    expect(refusal(w, { type: 'REST', characterId: 'f' })).toBe('Fabian has nothing to recover: endurance, health, stamina and focus are at their maximum.');
  });

  it('with "keep" (the default, which decides only the end of a fight), a Rest resets the pools too', () => {
    const { world: after } = run(world([boudica()]), { type: 'REST', characterId: 'b' });
    expect(stateOf(after, 'b')).toMatchObject({ endurance: 12, health: 12, stamina: 4, focus: 4, unconscious: false });
  });

  it('the whole party rests: each one recovers, the dead are skipped with the reason', () => {
    const w = world([boudica(), cato(), fabian()], { poolsAfterCombat: 'reset' });
    const { log, world: after } = run(w, { type: 'PARTY', action: { type: 'REST' }, characterIds: ['b', 'c', 'f'] });
    expect(log).toEqual([
      'Boudica rests, pools back to their maximum (R-T26): endurance 0 → 12/12, health 7 → 12/12, stamina 1 → 4/4, focus 2 → 4/4, conscious again.',
      'Fabian rests, pools back to their maximum (R-T26): endurance 9 → 12/12, stamina 0 → 4/4.',
      'Skipped: Cato is dead: nothing recovers.',
    ]);
    expect(stateOf(after, 'f')).toMatchObject({ endurance: 12, stamina: 4 });
    expect(stateOf(after, 'c')).toEqual(cato().state);
  });

  it('a party Rest nobody can take is refused whole, with each reason', () => {
    expect(refusal(world([cato(), member('f', 'Fabian')]), { type: 'PARTY', action: { type: 'REST' }, characterIds: ['c', 'f'] })).toBe(
      'Nobody in the party can do that now: Cato is dead: nothing recovers. Fabian has nothing to recover: endurance, health, stamina and focus are at their maximum.',
    );
  });
});

describe('Restore (the GM\'s own amounts)', () => {
  it('restores each named pool by its amount, capped at the maximum; health alone does not wake anyone', () => {
    const w = world([boudica()]);
    const { log, world: after } = run(w, { type: 'RESTORE', characterId: 'b', endurance: 20, health: 3 });
    expect(log).toEqual(['Boudica recovers: endurance 0 → 12/12, health 7 → 10/12; still unconscious (wake them to bring them round).']);
    expect(stateOf(after, 'b')).toMatchObject({ endurance: 12, health: 10, stamina: 1, focus: 2, unconscious: true });
    expect(teamsRecovery.card(after, 'b').out).toBe('Unconscious: wake them');
  });

  it('keeps a character at zero health unconscious even when the state never said so', () => {
    const w = world([member('f', 'Fabian', { health: 0 })]);
    expect(stat(w, 'f', 'Condition')).toEqual({ label: 'Condition', value: 'Unconscious', tone: 'bad' });
    const { world: after } = run(w, { type: 'RESTORE', characterId: 'f', health: 2 });
    expect(stateOf(after, 'f')).toMatchObject({ health: 2, unconscious: true });
    expect(stat(after, 'f', 'Condition')!.value).toBe('Unconscious');
  });

  it('with "wake" brings them round once health is above zero', () => {
    const { log, world: after } = run(world([boudica()]), { type: 'RESTORE', characterId: 'b', stamina: 2, wake: true });
    expect(log).toEqual(['Boudica recovers: stamina 1 → 3/4; conscious again.']);
    expect(stat(after, 'b', 'Condition')).toEqual({ label: 'Condition', value: 'Conscious', tone: 'ok' });
  });

  it('the whole party restores the same amounts', () => {
    const { log } = run(world([boudica(), fabian()]), { type: 'PARTY', action: { type: 'RESTORE', stamina: 2 }, characterIds: ['b', 'f'] });
    expect(log).toEqual(['Boudica recovers: stamina 1 → 3/4; still unconscious (wake them to bring them round).', 'Fabian recovers: stamina 0 → 2/4.']);
  });

  it('refuses an empty restore, a full pool and the dead', () => {
    const w = world([boudica(), fabian(), cato()]);
    expect(refusal(w, { type: 'RESTORE', characterId: 'f' })).toBe('Say which pools Fabian recovers and by how much.');
    expect(refusal(w, { type: 'RESTORE', characterId: 'b', wake: true })).toBe('Say which pools Boudica recovers; to only bring them round, use Wake.');
    expect(refusal(w, { type: 'RESTORE', characterId: 'f', health: 2, focus: 1 })).toBe("Fabian's health and focus are already at their maximum.");
    expect(refusal(w, { type: 'RESTORE', characterId: 'c', health: 2 })).toBe('Cato is dead: nothing recovers.');
  });
});

describe('Wake', () => {
  it('brings round an unconscious character with health left', () => {
    const { log, world: after } = run(world([boudica()]), { type: 'WAKE', characterId: 'b' });
    expect(log).toEqual(['Boudica comes round.']);
    expect(stateOf(after, 'b')).toMatchObject({ unconscious: false, health: 7 });
  });

  it('refuses the conscious, those at zero health and the dead', () => {
    const w = world([fabian(), member('z', 'Zed', { health: 0, unconscious: true }), cato()]);
    expect(refusal(w, { type: 'WAKE', characterId: 'f' })).toBe('Fabian is already conscious.');
    expect(refusal(w, { type: 'WAKE', characterId: 'z' })).toBe('Zed is at zero health: restore some health first.');
    expect(refusal(w, { type: 'WAKE', characterId: 'c' })).toBe('Cato is dead: nothing recovers.');
  });
});

describe('Repair item (§2.4 step 10)', () => {
  it('repairs by the amount, up to the maximum, with the note of cost and place', () => {
    const w = world([boudica()]);
    const { log, world: after } = run(w, { type: 'REPAIR_ITEM', characterId: 'b', item: 'shield', amount: 2, note: '3 silver, the cooper' });
    expect(log).toEqual(["Boudica's shield is repaired: durability 1 → 3/4 (3 silver, the cooper)."]);
    expect(stateOf(after, 'b')['items']).toEqual({ weapon: { durability: 10 }, shield: { durability: 3 } });
    expect(stat(after, 'b', 'Shield')).toEqual({ label: 'Shield: Buckler', value: 'durability 3/4', tone: 'warn' });
  });

  it('repairs fully when no amount is given, broken items included', () => {
    const w = world([member('f', 'Fabian', { items: { weapon: { durability: 0 } } }, { weaponName: 'Spear' })]);
    expect(stat(w, 'f', 'Weapon')).toEqual({ label: 'Weapon: Spear', value: 'durability 0/10 (broken)', tone: 'bad' });
    const { log, world: after } = run(w, { type: 'REPAIR_ITEM', characterId: 'f', item: 'weapon' });
    expect(log).toEqual(["Fabian's weapon is repaired: durability 0 → 10/10 (no longer broken)."]);
    expect(stat(after, 'f', 'Weapon')!.tone).toBe('ok');
  });

  it('a wooden item without listed durability has 4; a listed durability wins', () => {
    const w = world([member('f', 'Fabian', { items: { weapon: { durability: 1 } } }, { weaponMetal: false }), member('g', 'Gus', { items: { weapon: { durability: 1 } } }, { weaponDurability: 6 })]);
    expect(run(w, { type: 'REPAIR_ITEM', characterId: 'f', item: 'weapon' }).log).toEqual(["Fabian's weapon is repaired: durability 1 → 4/4."]);
    expect(run(w, { type: 'REPAIR_ITEM', characterId: 'g', item: 'weapon' }).log).toEqual(["Gus's weapon is repaired: durability 1 → 6/6."]);
  });

  it('refuses an undamaged item, a missing shield and the dead', () => {
    const w = world([boudica(), fabian(), cato()]);
    expect(refusal(w, { type: 'REPAIR_ITEM', characterId: 'b', item: 'weapon' })).toBe("Boudica's weapon is not damaged.");
    expect(refusal(w, { type: 'REPAIR_ITEM', characterId: 'f', item: 'shield' })).toBe('Fabian has no shield to repair.');
    expect(refusal(w, { type: 'REPAIR_ITEM', characterId: 'c', item: 'weapon', amount: 1 })).toBe('Cato is dead: nothing recovers.');
  });
});

describe('the cheat-death difficulty and death (§2.4 step 13, §2.6)', () => {
  it('is a lasting mark that never falls: recorded successes count even if the fight never carried it out', () => {
    const w = world([member('f', 'Fabian', { health: 5 }, {}, [cheatDeath('r1', 'f', 10), cheatDeath('r2', 'f', 15)])], { poolsAfterCombat: 'reset' });
    const card = teamsRecovery.card(w, 'f');
    expect(card.marks).toEqual(['Cheat-death difficulty 20 (cheated death twice, +5 each time): it never falls']);
    expect(card.records).toEqual([
      { id: 'r1', name: 'Cheated death (difficulty 10 → 15)', category: 'cheatDeath', status: 'permanent: difficulty 10 → 15', permanent: true },
      { id: 'r2', name: 'Cheated death (difficulty 15 → 20)', category: 'cheatDeath', status: 'permanent: difficulty 15 → 20', permanent: true },
    ]);
    const { world: after, change } = run(w, { type: 'REST', characterId: 'f' });
    expect(change.records).toBeUndefined();
    expect(teamsRecovery.card(after, 'f').marks).toEqual(card.marks);
  });

  it('starts from the sheet: 10 with no success', () => {
    expect(teamsRecovery.card(world([member('f', 'Fabian')]), 'f').marks).toEqual(['Cheat-death difficulty 10: it never falls']);
    expect(teamsRecovery.card(world([member('f', 'Fabian', {}, { cheatDeathDifficulty: 25 })]), 'f').marks).toEqual(['Cheat-death difficulty 25: it never falls']);
  });

  it('a death record alone makes the character dead: out, and nothing recovers', () => {
    const w = world([member('f', 'Fabian', { health: 0 }, {}, [death('d1', 'f')])], { poolsAfterCombat: 'reset' });
    const card = teamsRecovery.card(w, 'f');
    expect(card.out).toBe('Dead');
    expect(card.records).toEqual([{ id: 'd1', name: 'Died', category: 'death', status: 'permanent: a failed luck test', permanent: true }]);
    expect(refusal(w, { type: 'REST', characterId: 'f' })).toBe('Fabian is dead: nothing recovers.');
    expect(refusal(w, { type: 'RESTORE', characterId: 'f', health: 3 })).toBe('Fabian is dead: nothing recovers.');
  });
});

describe('the recovery card', () => {
  it('a fresh character shows the sheet: four pools at their maximum, conscious, the weapon whole', () => {
    const card = teamsRecovery.card(world([member('f', 'Fabian', {}, { weaponName: 'Spear' })]), 'f');
    expect(card.stats).toEqual([
      { label: 'Endurance', value: '12/12', tone: 'ok' },
      { label: 'Health', value: '12/12', tone: 'ok' },
      { label: 'Stamina', value: '4/4', tone: 'ok' },
      { label: 'Focus', value: '4/4', tone: 'ok' },
      { label: 'Condition', value: 'Conscious', tone: 'ok' },
      { label: 'Weapon: Spear', value: 'durability 10/10', tone: 'ok' },
    ]);
    expect(card.out).toBeNull();
  });

  it('shows what the last fight left: pools below the maximum, unconscious, the shield worn', () => {
    const card = teamsRecovery.card(world([boudica()]), 'b');
    expect(card.stats).toEqual([
      { label: 'Endurance', value: '0/12', tone: 'bad' },
      { label: 'Health', value: '7/12', tone: 'warn' },
      { label: 'Stamina', value: '1/4', tone: 'warn' },
      { label: 'Focus', value: '2/4', tone: 'warn' },
      { label: 'Condition', value: 'Unconscious', tone: 'bad' },
      { label: 'Weapon: Weapon', value: 'durability 10/10', tone: 'ok' },
      { label: 'Shield: Buckler', value: 'durability 1/4', tone: 'warn' },
    ]);
    expect(card.marks).toEqual(['Cheat-death difficulty 15 (cheated death once, +5 each time): it never falls']);
    expect(card.out).toBe('Unconscious: wake them');
    expect(teamsRecovery.card(world([member('z', 'Zed', { health: 0 })]), 'z').out).toBe('Unconscious at zero health: restore health, then wake them');
  });
});
