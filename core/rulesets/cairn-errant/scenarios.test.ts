// Cairn-Errant's worked examples (RULES.md §4.7) by their IDs, and the attack, defence, damage, critical and wound
// rules of §4.3–§4.6 with their rulings, through the event-sourced kernel.
import { describe, expect, it } from 'vitest';
import { promptAnswerEvent } from '../../encounter/prompt.ts';
import { app, ctx, encounter, fight, finishRound, intend, lock, seed, texts, who } from './testing.ts';

describe('worked examples (§4.7)', () => {
  it('CAIRN-01 declaration and telegraph: LOCK_INTENTS is refused until every PC has declared', () => {
    const e = fight([seed('mirah', 'party'), seed('bram', 'party'), seed('orc', 'enemies', { weaponDie: 8 })]);
    const set = intend(e, 'orc', 'melee', 'mirah', { note: 'sword' });
    expect(set[0]!.text).toBe("The Warden sets Orc's intent: attacks Mirah — sword — quick turn.");
    const hint = e.apply({ type: 'TELEGRAPH', combatantId: 'orc', text: 'the orc has its eyes on Mirah, sword out' });
    expect(hint[0]!.text).toBe("The Warden telegraphs Orc's intent: “the orc has its eyes on Mirah, sword out”.");
    expect(() => lock(e)).toThrow('Mirah, Bram have not declared an intent yet.');
    intend(e, 'mirah', 'melee', 'orc');
    expect(() => lock(e)).toThrow('Bram has not declared an intent yet.');
    intend(e, 'bram', 'ranged', 'orc');
    expect(e.view().aside![0]!.text).toContain('Orc — quick: attacks Mirah — sword (telegraphed: “the orc has its eyes on Mirah, sword out”)');
    lock(e);
    expect(e.view().prompt).toMatchObject({ kind: 'dexSaves', answer: 'DEX_SAVE' });
    expect(() => intend(e, 'bram', 'move')).toThrow('Intents are locked once the order is being settled (R-C4).');
  });

  it('CAIRN-12 fight back, no chain: Bram takes the orc\'s damage first, then his d8 minus its Armor lands; +1 Fatigue; the orc cannot react', () => {
    const e = fight([seed('bram', 'party', { weaponDie: 8, hpMax: 6, hp: 6 }), seed('orc', 'enemies', { weaponDie: 8, armor: 1, hpMax: 8, hp: 8, canDefend: true })]);
    intend(e, 'bram', 'spell');
    intend(e, 'orc', 'melee', 'bram', { note: 'orc blademaster' });
    lock(e);
    expect(e.view().prompt).toMatchObject({ kind: 'defence', subjectId: 'bram' });
    e.apply({ type: 'DEFENSE', defence: 'fightBack', attackerId: 'orc' });
    expect(who(e, 'bram').fatigue).toBe(1);
    const damage = e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(5) });
    expect(damage[0]!.text).toContain('Bram: HP 6→1');
    expect(who(e, 'orc').hp).toBe(8);
    expect(e.view().prompt).toMatchObject({ kind: 'fightBack', answer: 'FIGHT_BACK', subjectId: 'bram' });
    expect(() => e.apply({ type: 'DEFENSE', defence: 'block', defenderId: 'orc' })).toThrow('Orc is the attacker here: an attacking creature cannot react (no endless chains of reactions).');
    const back = e.apply({ type: 'FIGHT_BACK', defenderId: 'bram', roll: app(7) });
    expect(back[0]!.text).toBe("Bram fights back: d8 [7] → 7 − Orc's Armor 1 = 6; the attacker cannot react. Orc: HP 8→2.");
    expect(who(e, 'orc').hp).toBe(2);
  });

  it('CAIRN-20 hit location, leg twice: Injury item, disadvantage on the next initiative save only, then every initiative lost (R-C6, R-C6b)', () => {
    const e = fight([seed('bram', 'party', { dex: 12 }), seed('goblin', 'enemies')], { hitLocations: true });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'bram', amount: 2, source: 'falling rocks', attribute: 'str' });
    expect(() => e.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(7), strRoll: app(1) })).toThrow('Bram lost STR: roll the STR save against Critical Damage.');
    e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(19) });
    const hit = e.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(7), strRoll: app(1) });
    expect(hit[0]!.text).toContain('Hit location d10 [7]: right leg. Bram loses fast movement and the use of the leg; the next initiative DEX save is at disadvantage. Right leg injury added to the inventory (1/10 slots).');
    expect(hit[0]!.rulings).toEqual(['R-C6', 'R-C6b']);
    expect(who(e, 'bram').injuries.map((i) => i.location)).toEqual(['rightLeg']);
    // No quick-turn movement (R-C6b): a one-band move is a full turn, two bands are refused.
    expect(() => intend(e, 'bram', 'move', null, { bands: 2 })).toThrow('Bram has lost fast movement: no moving two range bands (R-C6b).');
    intend(e, 'bram', 'move');
    expect(ctx(e).intents['bram']!.tier).toBe('full');
    // Round 1: both quick, so Bram saves, rolling 2d20 and keeping the worse.
    intend(e, 'bram', 'other', null, { note: 'holds the door' });
    intend(e, 'goblin', 'other', null, { note: 'snarls' });
    lock(e);
    expect(() => e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(3) })).toThrow("Bram's DEX save needs 2d20, keeping the worse (disadvantage, R-C6): 1 given.");
    const save = e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(3, 15) });
    expect(save[0]!.text).toBe("Bram's initiative DEX save: 2d20 with disadvantage [3, 15] → 15 against DEX 12: fails, acts after the enemies.");
    expect(ctx(e).moments.map((m) => m.bucket)).toEqual(['npc', 'pcFail']);
    finishRound(e);
    // Round 2: the save after that one is rolled normally again.
    intend(e, 'bram', 'other');
    intend(e, 'goblin', 'other');
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(3) });
    expect(ctx(e).moments.map((m) => m.bucket)).toEqual(['pcPass', 'npc']);
    // A second right-leg result.
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'bram', amount: 1, source: 'goblin trap', attribute: 'str' });
    e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(20) });
    e.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(7), strRoll: app(1) });
    expect(e.view().order.find((c) => c.id === 'bram')!.tags).toContain('loses every initiative roll');
    finishRound(e);
    // Round 3: no roll, straight into the PC-fail bucket, until the injury heals.
    intend(e, 'bram', 'other');
    intend(e, 'goblin', 'other');
    const locked = lock(e);
    expect(locked[0]!.text).toContain('Bram loses the initiative without a roll (a leg hit twice).');
    expect(locked[0]!.rulings).toContain('R-C6');
    expect(ctx(e).moments.map((m) => [m.bucket, m.ids])).toEqual([['npc', ['goblin']], ['pcFail', ['bram']]]);
    expect(() => e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(1) })).toThrow('No initiative DEX save is being rolled now.');
  });
});

/** Bram (party) against an orc; the orc strikes first in the quick tier (Bram declares something slow). */
function orcAttacks(bram: Record<string, string | number | boolean> = {}, orc: Record<string, string | number | boolean> = {}, options: Record<string, string | number | boolean> = {}, orcIntent: Record<string, unknown> = {}, beforeLock: (e: ReturnType<typeof fight>) => void = () => {}) {
  const e = fight([seed('bram', 'party', { hpMax: 6, hp: 6, ...bram }), seed('orc', 'enemies', { weaponDie: 8, hpMax: 6, hp: 6, ...orc })], options);
  intend(e, 'bram', 'spell');
  intend(e, 'orc', 'melee', 'bram', orcIntent);
  beforeLock(e);
  lock(e);
  return e;
}

describe('attack and damage pipeline (§4.4)', () => {
  it('subtracts Armor, takes HP first and the rest off STR, then calls for the STR save', () => {
    const e = orcAttacks({ armor: 1, hp: 3 });
    e.apply({ type: 'DEFENSE', defence: 'none' });
    const lines = e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(7) });
    expect(lines[0]!.text).toBe('Damage on Bram: Orc d8 [7] → 7. 7 from Orc − Armor 1 = 6. Bram: HP 3→0, STR 10→7.');
    expect(e.view().prompt).toMatchObject({ kind: 'critSave', answer: 'STR_SAVE' });
    e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(7) });
    expect(e.view().prompt).toBeNull();
  });

  it('R-C21 landing exactly on 0 HP does nothing more: no STR loss, no save', () => {
    const e = orcAttacks({ hp: 5 });
    e.apply({ type: 'DEFENSE', defence: 'none' });
    const lines = e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(5) });
    expect([who(e, 'bram').hp, who(e, 'bram').str]).toEqual([0, 10]);
    expect(lines[0]!.rulings).toContain('R-C21');
    expect(e.view().prompt).toBeNull();
  });

  it('STR 0 is death (§4.4 step 11)', () => {
    const e = orcAttacks({ hp: 0, str: 3 });
    e.apply({ type: 'DEFENSE', defence: 'none' });
    const lines = e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(8) });
    expect(who(e, 'bram').out).toMatchObject({ kind: 'dead' });
    expect(texts(lines)).toContain('Bram dies (STR 0).');
    expect(e.view().phase).toBe('ended'); // R-C7: the whole party is down
  });

  it('R-C1 several attackers in one bucket keep only the highest die; with the ruling off each strikes apart', () => {
    const three = (options = {}) => {
      const e = fight([seed('bram', 'party', { hpMax: 8, hp: 8 }), seed('g1', 'enemies', { weaponDie: 6 }), seed('g2', 'enemies', { weaponDie: 10 })], options);
      intend(e, 'bram', 'spell');
      intend(e, 'g1', 'melee', 'bram');
      intend(e, 'g2', 'melee', 'bram');
      lock(e);
      e.apply({ type: 'DEFENSE', defence: 'none' });
      return e;
    };
    const e = three();
    expect(e.rules.rollsFor!(e.snapshot, { type: 'STRIKE', targetId: 'bram' })).toEqual([{ path: ['roll'], label: 'Damage on Bram: G1 d6, G2 d10', notation: '1d6+1d10', count: 2, sides: 10, dice: [6, 10] }]);
    const lines = e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(5, 3) });
    expect(lines[0]!.text).toContain('keeps the highest, 5 from G1 − Armor 0 = 5');
    expect(lines[0]!.rulings).toContain('R-C1');
    expect(who(e, 'bram').hp).toBe(3);
    const apart = three({ bucketIsOneMoment: false });
    apart.apply({ type: 'STRIKE', targetId: 'bram', roll: app(5) });
    expect(apart.view().prompt).toMatchObject({ kind: 'defence' });
    apart.apply({ type: 'DEFENSE', defence: 'none' });
    apart.apply({ type: 'STRIKE', targetId: 'bram', roll: app(3) });
    expect(who(apart, 'bram').hp).toBe(0);
  });

  it('mixed dice in one damage roll: the request lists each die in order and typed faces are checked one by one', () => {
    const e = fight([seed('bram', 'party', { hpMax: 20, hp: 20 }), seed('g1', 'enemies', { weaponDie: 8 }), seed('g2', 'enemies', { weaponDie: 6 })]);
    intend(e, 'bram', 'spell');
    intend(e, 'g1', 'melee', 'bram', { position: 'enhanced' });
    intend(e, 'g2', 'melee', 'bram');
    lock(e);
    e.apply({ type: 'DEFENSE', defence: 'none' });
    expect(e.rules.rollsFor!(e.snapshot, { type: 'STRIKE', targetId: 'bram' })).toEqual([
      { path: ['roll'], label: 'Damage on Bram: G1 d8+d12, G2 d6', notation: '1d8+1d12+1d6', count: 3, sides: 12, dice: [8, 12, 6] },
    ]);
    const typed = (...faces: number[]) => ({ type: 'STRIKE', targetId: 'bram', roll: { faces, source: 'manual' as const } });
    expect(() => e.apply(typed(9, 5, 3))).toThrow('9 is not a face of the d8: die 1 of the damage roll against Bram (d8 + d12 + d6), in that order.');
    expect(() => e.apply(typed(8, 12, 7))).toThrow('7 is not a face of the d6: die 3 of the damage roll against Bram (d8 + d12 + d6), in that order.');
    expect(() => e.apply(typed(8, 12))).toThrow('The damage roll against Bram needs d8 + d12 + d6: 2 dice given.');
    const lines = e.apply(typed(3, 11, 6));
    expect(lines[0]!.text).toBe('Damage on Bram: G1 d8+d12 [3, 11] → 11 (enhanced: d12 too, keep the higher); G2 d6 [6] → 6. keeps the highest, 11 from G1 − Armor 0 = 11. Bram: HP 20→9.');
  });

  it('R-C20 a tie for the highest die: the GM picks whose tags apply (a non-lethal fist knocks out instead)', () => {
    const e = fight([seed('bram', 'party', { hp: 1 }), seed('brawler', 'enemies'), seed('thug', 'enemies')]);
    intend(e, 'bram', 'spell');
    intend(e, 'brawler', 'melee', 'bram', { weapon: 'unarmed' });
    intend(e, 'thug', 'melee', 'bram', { weapon: 'unarmed', nonLethal: false });
    lock(e);
    e.apply({ type: 'DEFENSE', defence: 'none' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(4, 4) });
    expect(e.view().prompt).toMatchObject({ kind: 'tie', answer: 'TIE_BREAK', choices: [{ id: 'brawler' }, { id: 'thug' }] });
    expect(e.apply({ type: 'TIE_BREAK', attackerId: 'brawler' })[0]!.rulings).toEqual(['R-C20']);
    e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(20) });
    expect(who(e, 'bram').unconscious).toBe(true);
    expect(e.view().prompt).toBeNull();
  });

  it('unarmed is d4 and non-lethal: a failed save knocks out instead of the table; improvised weapons break after one attack', () => {
    const e = orcAttacks({ hp: 0 }, {}, {}, { weapon: 'unarmed' });
    e.apply({ type: 'DEFENSE', defence: 'none' });
    expect(e.rules.rollsFor!(e.snapshot, { type: 'STRIKE', targetId: 'bram' })[0]!.notation).toBe('1d4');
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(3) });
    const lines = e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(15) });
    expect(texts(lines)).toContain('Bram is knocked unconscious.');
    expect(e.view().phase).toBe('ended');
    const chair = orcAttacks({}, {}, {}, { weapon: 'improvised', improvisedSize: 8 });
    chair.apply({ type: 'DEFENSE', defence: 'none' });
    expect(chair.apply({ type: 'STRIKE', targetId: 'bram', roll: app(8) })[0]!.text).toContain('Orc d8 [8] → 8, the improvised weapon breaks');
  });

  it('impaired attacks roll a d4; enhanced add a d12 and keep the higher (R-C11), or sum, or replace', () => {
    const impaired = orcAttacks({}, {}, {}, { position: 'impaired' });
    impaired.apply({ type: 'DEFENSE', defence: 'none' });
    expect(impaired.rules.rollsFor!(impaired.snapshot, { type: 'STRIKE', targetId: 'bram' })[0]!.notation).toBe('1d4');
    const modes: [string, number[], number][] = [['keepHighest', [3, 9], 9], ['sum', [3, 9], 12], ['replace', [9], 9]];
    for (const [mode, faces, total] of modes) {
      const e = orcAttacks({ hpMax: 20, hp: 20 }, {}, { enhancedMode: mode }, { position: 'enhanced' });
      e.apply({ type: 'DEFENSE', defence: 'none' });
      const lines = e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(...faces) });
      expect(who(e, 'bram').hp).toBe(20 - total);
      expect(lines[0]!.rulings).toContain('R-C11');
    }
  });

  it('R-C12 enhanced and impaired cancel: a blocked enhanced attack rolls its normal die', () => {
    const e = orcAttacks({}, { weaponDie: 6 }, {}, { position: 'enhanced' });
    e.apply({ type: 'DEFENSE', defence: 'block' });
    const request = e.rules.rollsFor!(e.snapshot, { type: 'STRIKE', targetId: 'bram' })[0]!;
    expect(request.notation).toBe('1d6');
    const lines = e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(6) });
    expect(lines[0]!.rulings).toContain('R-C12');
    const noCancel = orcAttacks({}, { weaponDie: 6 }, { enhancedImpairedCancel: false }, { position: 'enhanced' });
    noCancel.apply({ type: 'DEFENSE', defence: 'block' });
    expect(noCancel.rules.rollsFor!(noCancel.snapshot, { type: 'STRIKE', targetId: 'bram' })[0]!.notation).toBe('1d4+1d12');
  });

  it('dual weapons roll both dice and keep the higher; a lost arm forbids them', () => {
    const e = fight([seed('bram', 'party', { weaponDie: 8, offhandDie: '6' }), seed('orc', 'enemies', { hpMax: 10, hp: 10 })]);
    intend(e, 'bram', 'melee', 'orc', { weapon: 'dual' });
    intend(e, 'orc', 'spell');
    lock(e);
    expect(e.rules.rollsFor!(e.snapshot, { type: 'STRIKE', targetId: 'orc' })[0]!.notation).toBe('1d8+1d6');
    e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(2, 5) });
    expect(who(e, 'orc').hp).toBe(5);
    const armless = fight([seed('bram', 'party', { offhandDie: '6', leftArmLost: true }), seed('orc', 'enemies')]);
    expect(() => intend(armless, 'bram', 'melee', 'orc', { weapon: 'dual' })).toThrow('Bram has lost the use of an arm: no dual wielding.');
  });

  it('R-C13 an unaware target takes damage after Armor straight to STR and still saves; switchable', () => {
    const unaware = (e: ReturnType<typeof fight>) => e.apply({ type: 'SET_AWARE', combatantId: 'bram', aware: false });
    const e = orcAttacks({ armor: 1 }, {}, {}, {}, unaware);
    expect(e.view().prompt).toMatchObject({ kind: 'strike' }); // no defence window for the unaware
    const lines = e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(5) });
    expect([who(e, 'bram').hp, who(e, 'bram').str]).toEqual([6, 6]);
    expect(lines[0]!.text).toContain('straight to STR (unaware)');
    expect(e.view().prompt).toMatchObject({ kind: 'critSave' });
    const off = orcAttacks({}, {}, { directStrDamageSaves: false }, {}, unaware);
    off.apply({ type: 'STRIKE', targetId: 'bram', roll: app(5) });
    expect(off.view().prompt).toBeNull();
  });

  it('an overburdened PC (10 slots full) cannot defend and takes damage to STR', () => {
    const e = orcAttacks({ gearSlots: 9, fatigue: 1 });
    expect(e.view().prompt).toMatchObject({ kind: 'strike' });
    expect(e.view().order.find((c) => c.id === 'bram')!.tags).toContain('overburdened: cannot defend');
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(4) });
    expect(who(e, 'bram').str).toBe(6);
  });
});

describe('reactions (§4.4 steps 4–5)', () => {
  it('Block impairs fast and balanced attacks (+1 Fatigue); Dodge impairs balanced and slow ones', () => {
    const cases: ['block' | 'dodge', number, string][] = [['block', 6, '1d4'], ['block', 8, '1d4'], ['block', 10, '1d10'], ['dodge', 6, '1d6'], ['dodge', 8, '1d4'], ['dodge', 10, '1d4']];
    for (const [defence, die, notation] of cases) {
      const e = orcAttacks({}, { weaponDie: die });
      e.apply({ type: 'DEFENSE', defence });
      expect(e.rules.rollsFor!(e.snapshot, { type: 'STRIKE', targetId: 'bram' })[0]!.notation, `${defence} against d${die}`).toBe(notation);
      expect(who(e, 'bram').fatigue).toBe(1);
    }
  });

  it('restrict: no blocking with a light weapon and no shield, no dodging at Armor 3', () => {
    const e = orcAttacks({ weaponDie: 6, armor: 3 }, {}, { blockDodge: 'restrict' });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'fightBack:orc', 'parry:orc']);
    expect(() => e.apply({ type: 'DEFENSE', defence: 'block' })).toThrow('Bram needs a shield or a balanced or heavy melee weapon to block.');
    expect(() => e.apply({ type: 'DEFENSE', defence: 'dodge' })).toThrow('Bram cannot dodge at Armor 3 or with a heavy weapon.');
    const shield = orcAttacks({ weaponDie: 6, shield: true }, {}, { blockDodge: 'restrict' });
    expect(() => shield.apply({ type: 'DEFENSE', defence: 'block' })).not.toThrow();
  });

  it('graded: the right gear negates, without it the defence impairs', () => {
    const e = orcAttacks({ weaponDie: 8 }, { weaponDie: 8 }, { blockDodge: 'graded' });
    e.apply({ type: 'DEFENSE', defence: 'block' });
    expect(e.rules.rollsFor!(e.snapshot, { type: 'STRIKE', targetId: 'bram' })).toEqual([]);
    const lines = e.apply({ type: 'STRIKE', targetId: 'bram' });
    expect(lines[0]!.text).toBe('Every attack on Bram is negated by the Block: no damage.');
    const heavy = orcAttacks({ weaponDie: 10 }, { weaponDie: 8 }, { blockDodge: 'graded' });
    heavy.apply({ type: 'DEFENSE', defence: 'dodge' });
    expect(heavy.rules.rollsFor!(heavy.snapshot, { type: 'STRIKE', targetId: 'bram' })[0]!.notation).toBe('1d4');
  });

  it('Parry: the higher roll goes straight to the loser\'s STR after Armor (R-C15), no save, no Fatigue (R-C8); equal is a twing', () => {
    const won = orcAttacks({ weaponDie: 8 }, { armor: 1 });
    won.apply({ type: 'DEFENSE', defence: 'parry', attackerId: 'orc' });
    expect(who(won, 'bram').fatigue).toBe(0);
    const lines = won.apply({ type: 'STRIKE', targetId: 'bram', roll: app(3, 7) });
    expect(lines[0]!.text).toContain("Parry: Bram 7 beats Orc 3: 6 straight to Orc's STR (after Armor, no save).");
    expect([who(won, 'orc').hp, who(won, 'orc').str, who(won, 'bram').hp]).toEqual([6, 4, 6]);
    expect(won.view().prompt).toBeNull();
    const lost = orcAttacks({ weaponDie: 8, armor: 2 });
    lost.apply({ type: 'DEFENSE', defence: 'parry', attackerId: 'orc' });
    lost.apply({ type: 'STRIKE', targetId: 'bram', roll: app(8, 2) });
    expect([who(lost, 'bram').hp, who(lost, 'bram').str]).toEqual([6, 4]);
    expect(lost.view().prompt).toBeNull();
    const twing = orcAttacks({ weaponDie: 8 });
    twing.apply({ type: 'DEFENSE', defence: 'parry', attackerId: 'orc' });
    expect(twing.apply({ type: 'STRIKE', targetId: 'bram', roll: app(5, 5) })[0]!.text).toContain('twing!');
    expect([who(twing, 'bram').str, who(twing, 'orc').str]).toEqual([10, 10]);
    const bare = orcAttacks({ weaponDie: 8 }, { armor: 1 }, { parryIgnoresArmor: true, parryFatigue: 1 });
    bare.apply({ type: 'DEFENSE', defence: 'parry', attackerId: 'orc' });
    expect(who(bare, 'bram').fatigue).toBe(1);
    bare.apply({ type: 'STRIKE', targetId: 'bram', roll: app(3, 7) });
    expect(who(bare, 'orc').str).toBe(3);
  });

  it('Parry: the other attackers in the moment still roll and the higher of theirs applies', () => {
    const e = fight([seed('bram', 'party', { weaponDie: 8, hpMax: 6, hp: 6 }), seed('orc', 'enemies', { weaponDie: 8 }), seed('goblin', 'enemies', { weaponDie: 6 })]);
    intend(e, 'bram', 'spell');
    intend(e, 'orc', 'melee', 'bram');
    intend(e, 'goblin', 'melee', 'bram');
    lock(e);
    e.apply({ type: 'DEFENSE', defence: 'parry', attackerId: 'orc' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(8, 4, 6) });
    // The orc's 8 beats the parry 6: 8 to STR; the goblin's 4 goes to HP as usual.
    expect([who(e, 'bram').hp, who(e, 'bram').str]).toEqual([2, 2]);
  });

  it('R-C14 a PC downed by the incoming damage does not fight back; with the ruling off the blow still lands', () => {
    const downed = (options: Record<string, string | number | boolean> = {}) => {
      const e = orcAttacks({ hp: 0, str: 4 }, {}, options);
      e.apply({ type: 'DEFENSE', defence: 'fightBack', attackerId: 'orc' });
      e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(2) });
      e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(18) });
      return { e, lines: e.apply({ type: 'CRIT_D6', combatantId: 'bram', roll: app(3), hpRoll: app(2) }) };
    };
    const { lines } = downed();
    expect(texts(lines)).toContain('Bram is down: the fight-back does not happen.');
    expect(lines.find((l) => l.text.includes('fight-back'))!.rulings).toEqual(['R-C14']);
    const off = downed({ downedCannotFightBack: false });
    expect(texts(off.lines)).not.toContain('Bram is down: the fight-back does not happen.');
    expect(off.e.view().prompt).toMatchObject({ kind: 'fightBack', subjectId: 'bram' });
    off.e.apply({ type: 'FIGHT_BACK', defenderId: 'bram', roll: app(4) });
    expect(who(off.e, 'orc').hp).toBe(2);
  });
});

describe('gambits (§4.4 step 6)', () => {
  const gambit = (options: Record<string, string | number | boolean> = {}, orc: Record<string, string | number | boolean> = {}) => {
    const e = fight([seed('bram', 'party', { dex: 12, weaponDie: 8 }), seed('orc', 'enemies', { weaponDie: 8, hpMax: 6, hp: 6, ...orc })], options);
    intend(e, 'bram', 'spell');
    intend(e, 'orc', 'gambit', 'bram', { note: 'trip' });
    lock(e);
    return e;
  };

  it('asks for the save, turns a 1–3 into the Difficulty (R-C19 literal), and lets a passing target attack back (R-C17)', () => {
    const e = gambit({}, { canDefend: true });
    expect(e.view().prompt).toMatchObject({ kind: 'gambit', answer: 'GAMBIT', choices: [{ id: 'str' }, { id: 'dex' }, { id: 'wil' }] });
    expect(e.view().prompt!.choices.some((c) => c.id === 'block')).toBe(false);
    const lines = e.apply({ type: 'GAMBIT', save: 'dex', roll: app(2), saveRoll: app(5) });
    expect(lines[0]!.text).toBe("Orc tries a gambit on Bram (trip): d8 [2] → 2, Difficulty 2. Bram's DEX save [5] against 12 and above 2: passes: the gambit fails and Bram may attack back.");
    expect(e.view().prompt).toMatchObject({ kind: 'attackBack', subjectId: 'bram' });
    // R-C17 as written: the gambit user cannot react, even an enemy given the reactions.
    expect(() => e.apply({ type: 'DEFENSE', defence: 'block', defenderId: 'orc' })).toThrow("Orc made the gambit: it cannot react to Bram's attack back (R-C17).");
    const back = e.apply({ type: 'ATTACK_BACK', decision: 'strike', roll: app(6) });
    expect(back[0]!.rulings).toEqual(['R-C17']);
    expect(back[0]!.text).toBe('Bram attacks back: d8 [6] → 6 − Armor 0 = 6; Orc cannot react. Orc: HP 6→0.');
    expect(who(e, 'orc').hp).toBe(0);
  });

  it('R-C17 as an option: the gambit user reacts to the attack back before it is rolled (Block, Parry, fight back)', () => {
    const open = (orc: Record<string, string | number | boolean> = { canDefend: true }) => {
      const e = gambit({ noReactionToAttackBack: false }, orc);
      e.apply({ type: 'GAMBIT', save: 'dex', roll: app(2), saveRoll: app(5) });
      return e;
    };
    const e = open();
    expect(e.rules.rollsFor!(e.snapshot, { type: 'ATTACK_BACK', decision: 'strike' })).toEqual([]);
    expect(() => e.apply({ type: 'ATTACK_BACK', decision: 'strike', roll: app(6) })).toThrow('Orc may react to the attack back first (R-C17): roll it once the reaction is chosen.');
    const line = e.apply({ type: 'ATTACK_BACK', decision: 'strike' });
    expect(line[0]).toMatchObject({ rulings: ['R-C17'], text: "Bram attacks Orc back; Orc may react first (the gambit user's reaction is allowed in this campaign)." });
    expect(e.view().prompt).toMatchObject({ kind: 'defence', answer: 'DEFENSE', subjectId: 'orc' });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'block', 'dodge', 'fightBack:bram', 'parry:bram']);
    expect(() => e.apply({ type: 'DEFENSE', defence: 'parry', attackerId: 'orc' })).toThrow('Orc can parry only Bram, who attacks back.');
    expect(() => e.apply({ type: 'DEFENSE', defence: 'dodge', defenderId: 'bram' })).toThrow('Bram is the attacker here: an attacking creature cannot react');
    const block = e.apply({ type: 'DEFENSE', defence: 'block' });
    expect(block[0]!.text).toBe("Orc blocks: fast and balanced attacks become impaired (against Bram's attack back) (+1 Fatigue: 1 Fatigue, 1/10 slots).");
    expect(block[0]!.rulings).toEqual(['R-C17', 'R-C9']);
    expect(e.view().prompt).toMatchObject({ kind: 'strike', answer: 'STRIKE', subjectId: 'orc' });
    expect(e.rules.rollsFor!(e.snapshot, { type: 'STRIKE', targetId: 'orc' })).toEqual([{ path: ['roll'], label: 'Attack back on Orc: Bram d4', notation: '1d4', count: 1, sides: 4 }]);
    const hit = e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(3) });
    expect(hit[0]!.text).toBe("Bram attacks back: d4 [3] → 3 (impaired by the Block). 3 − Orc's Armor 0 = 3. Orc: HP 6→3.");
    expect(who(e, 'orc').hp).toBe(3);

    const parry = open();
    parry.apply({ type: 'ATTACK_BACK', decision: 'strike' });
    parry.apply({ type: 'DEFENSE', defence: 'parry', attackerId: 'bram' });
    expect(parry.rules.rollsFor!(parry.snapshot, { type: 'STRIKE', targetId: 'orc' })[0]!.notation).toBe('1d8+1d8');
    const parried = parry.apply({ type: 'STRIKE', targetId: 'orc', roll: app(5, 7) });
    expect(parried[0]!.text).toContain("Parry: Orc 7 beats 5: 7 straight to Bram's STR (after Armor, no save).");
    expect([who(parry, 'bram').hp, who(parry, 'bram').str]).toEqual([4, 3]);
    expect(parry.view().prompt).toBeNull();

    const fightBack = open();
    fightBack.apply({ type: 'ATTACK_BACK', decision: 'strike' });
    fightBack.apply({ type: 'DEFENSE', defence: 'fightBack', attackerId: 'bram' });
    fightBack.apply({ type: 'STRIKE', targetId: 'orc', roll: app(2) });
    expect(fightBack.view().prompt).toMatchObject({ kind: 'fightBack', subjectId: 'orc' });

    // An enemy without the reactions has no window even then: the attack back is rolled at once.
    const plain = open({});
    expect(plain.apply({ type: 'ATTACK_BACK', decision: 'strike', roll: app(4) })[0]!.text).toContain('Orc cannot react');
  });

  it('a save at or below the Difficulty fails; a natural 1 fails against one (R-C16) unless the option says it passes', () => {
    const e = gambit();
    expect(e.apply({ type: 'GAMBIT', save: 'dex', roll: app(3), saveRoll: app(1) })[0]!.text).toContain('fails: the gambit works');
    const lenient = gambit({ naturalOneVsDifficulty: 'passes' });
    expect(lenient.apply({ type: 'GAMBIT', save: 'dex', roll: app(3), saveRoll: app(1) })[0]!.text).toContain('passes');
    const none = gambit();
    expect(none.apply({ type: 'GAMBIT', save: 'dex', roll: app(6), saveRoll: app(12) })[0]!.text).toContain('no Difficulty');
  });

  it('R-C19 capped: a 4 or more is Difficulty 3', () => {
    const e = gambit({ gambitDifficulty: 'capped' });
    expect(e.apply({ type: 'GAMBIT', save: 'dex', roll: app(7), saveRoll: app(3) })[0]!.text).toContain('Difficulty 3. Bram\'s DEX save [3] against 12 and above 3: fails');
  });

  it('R-C18 no fight-back against a gambit by default; as an option the window opens before it', () => {
    const e = gambit({ fightBackAgainstGambits: true });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'block', 'dodge', 'fightBack:orc']);
    e.apply({ type: 'DEFENSE', defence: 'fightBack', attackerId: 'orc' });
    e.apply({ type: 'GAMBIT', save: 'dex', roll: app(2), saveRoll: app(15) });
    expect(e.view().prompt).toMatchObject({ kind: 'fightBack' });
  });
});

describe('critical damage and ability loss (§4.4 steps 10–11)', () => {
  const critical = (options: Record<string, string | number | boolean> = {}, bram: Record<string, string | number | boolean> = {}) => {
    const e = fight([seed('bram', 'party', { hpMax: 6, hp: 4, ...bram }), seed('ally', 'party'), seed('orc', 'enemies')], options);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'bram', amount: 6, source: 'orc axe' });
    e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(12) });
    return e;
  };

  it('the d6 table: 1 dies; 2–5 incapacitated with an hour-long death clock; 6 regains 1d4 HP', () => {
    const dies = critical();
    dies.apply({ type: 'CRIT_D6', combatantId: 'bram', roll: app(1), hpRoll: app(2) });
    expect(who(dies, 'bram').out).toMatchObject({ kind: 'dead' });
    const down = critical();
    expect(down.apply({ type: 'CRIT_D6', combatantId: 'bram', roll: app(4), hpRoll: app(2) })[0]!.text).toBe('Critical damage d6 [4]: Bram is incapacitated and dies within the hour unless treated: the death clock starts at 60 minutes of in-game time (TREAT stops it).');
    expect(down.view().order.find((c) => c.id === 'bram')!.tags).toContain('incapacitated: dies in 60 min unless treated');
    expect(down.view().order.find((c) => c.id === 'bram')!.stats).toContainEqual({ label: 'Death clock', value: '60 min' });
    const lucky = critical();
    lucky.apply({ type: 'CRIT_D6', combatantId: 'bram', roll: app(6), hpRoll: app(3) });
    expect(who(lucky, 'bram').hp).toBe(3);
    expect(lucky.view().order.find((c) => c.id === 'bram')!.tags).toContain('impaired attacks; attacks against: likely enhanced');
  });

  it('a PC carried in while dying: the log says how long the death clock has left', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('bram', 'party', {}, { incapacitated: true, deathClockMinutes: 40 }), seed('ally', 'party'), seed('orc', 'enemies')] });
    const lines = e.apply({ type: 'START' });
    expect(lines[0]!.text).toBe('The fight begins (declared intents, quick turns before full turns). Bram is dying: 40 minutes left on the death clock unless treated.');
    expect(who(e, 'bram').deathClock).toBe(40);
  });

  it('TREAT stops the death clock; the PC stays out until healed (R-C27)', () => {
    const e = critical();
    e.apply({ type: 'CRIT_D6', combatantId: 'bram', roll: app(2), hpRoll: app(1) });
    const lines = e.apply({ type: 'TREAT', combatantId: 'bram', note: 'bandages' });
    expect(lines[0]!.rulings).toEqual(['R-C27']);
    expect([who(e, 'bram').deathClock, who(e, 'bram').incapacitated]).toEqual([null, true]);
    expect(() => intend(e, 'bram', 'melee', 'orc')).toThrow('Bram cannot act this round (incapacitated).');
    const back = critical({ treatedStaysOut: false });
    back.apply({ type: 'CRIT_D6', combatantId: 'bram', roll: app(2), hpRoll: app(1) });
    back.apply({ type: 'TREAT', combatantId: 'bram' });
    expect(() => intend(back, 'bram', 'melee', 'orc')).not.toThrow();
  });

  it('hit locations: torso loses another 1d4 STR, an arm forbids two weapons, the head is death (R-C22) or the GM\'s call', () => {
    const torso = critical({ hitLocations: true });
    expect(() => torso.apply({ type: 'CRIT_D6', combatantId: 'bram', roll: app(3), hpRoll: app(1) })).toThrow('This campaign rolls hit locations (d10) instead of the d6.');
    torso.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(2), strRoll: app(3) });
    expect(who(torso, 'bram').str).toBe(5);
    const arm = critical({ hitLocations: true }, { offhandDie: '6' });
    arm.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(9), strRoll: app(1) });
    expect(() => intend(arm, 'bram', 'melee', 'orc', { weapon: 'dual' })).toThrow('no dual wielding');
    const head = critical({ hitLocations: true });
    head.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(10), strRoll: app(1) });
    expect(who(head, 'bram').out).toMatchObject({ kind: 'dead' });
    const asked = critical({ hitLocations: true, headResult: 'gmDecides' });
    asked.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(10), strRoll: app(1) });
    expect(asked.view().prompt).toMatchObject({ kind: 'head', answer: 'HEAD_RESULT' });
    asked.apply({ type: 'HEAD_RESULT', result: 'survives' });
    expect(who(asked, 'bram').out).toBeNull();
  });

  it('R-C23 an enemy that fails the save is defeated at the GM\'s call, or fights on impaired', () => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies', { hp: 2 }), seed('goblin', 'enemies')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'orc', amount: 5, source: 'Bram' });
    e.apply({ type: 'STR_SAVE', combatantId: 'orc', roll: app(17) });
    expect(e.view().prompt).toMatchObject({ kind: 'npcCritical', choices: [{ id: 'dead' }, { id: 'out' }, { id: 'fightsOn' }] });
    e.apply({ type: 'NPC_CRITICAL', result: 'out' });
    expect(who(e, 'orc').out).toMatchObject({ kind: 'defeated' });
    const tough = fight([seed('bram', 'party'), seed('orc', 'enemies', { hp: 2 })], { npcCriticalDamage: 'fightsOnImpaired' });
    tough.apply({ type: 'APPLY_DAMAGE', targetId: 'orc', amount: 5, source: 'Bram' });
    tough.apply({ type: 'STR_SAVE', combatantId: 'orc', roll: app(17) });
    expect([tough.view().prompt, who(tough, 'orc').failedCriticalSave]).toEqual([null, true]);
  });

  it('R-C24 DEX or WIL at 0 leaves the character unable to act (or only both, as an option)', () => {
    const e = fight([seed('bram', 'party'), seed('ally', 'party'), seed('orc', 'enemies')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'bram', amount: 10, source: 'paralysing venom', attribute: 'dex' });
    expect(() => intend(e, 'bram', 'spell')).toThrow('Bram cannot act this round (paralysed at DEX 0).');
    const both = fight([seed('bram', 'party'), seed('orc', 'enemies')], { dexWilZero: 'both' });
    both.apply({ type: 'APPLY_DAMAGE', targetId: 'bram', amount: 10, source: 'venom', attribute: 'dex' });
    expect(() => intend(both, 'bram', 'spell')).not.toThrow();
  });
});

describe('retreat, changing plans and the end of the fight', () => {
  it('retreat from Close is a full turn; a passed DEX save gets away, a failed one wastes the action (R-C10)', () => {
    const e = fight([seed('mira', 'party', { dex: 12 }), seed('bram', 'party'), seed('orc', 'enemies')]);
    intend(e, 'mira', 'retreat', null, { fromClose: true });
    expect(ctx(e).intents['mira']!.tier).toBe('full');
    intend(e, 'bram', 'retreat');
    expect(ctx(e).intents['bram']!.tier).toBe('quick');
    intend(e, 'orc', 'spell');
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'mira', roll: app(3) }); // the full tier holds the orc too
    expect(() => e.apply({ type: 'END_TURN' })).toThrow("Bram's retreat needs its DEX save first.");
    expect(e.apply({ type: 'RETREAT', combatantId: 'bram', roll: app(15) })[0]!.rulings).toEqual(['R-C10']);
    expect(who(e, 'bram').out).toBeNull();
    expect(e.view().activeId).toBe('mira');
    e.apply({ type: 'RETREAT', combatantId: 'mira', roll: app(4) });
    expect(who(e, 'mira').out).toMatchObject({ kind: 'retreated' });
    expect(e.view().activeId).toBe('orc');
  });

  it('R-C4 a target gone by the actor\'s moment: the GM redirects the action or it is lost', () => {
    const e = fight([seed('bram', 'party'), seed('mira', 'party'), seed('orc', 'enemies')]);
    intend(e, 'bram', 'spell');
    intend(e, 'mira', 'retreat');
    intend(e, 'orc', 'melee', 'mira', { move: 'before' });
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(15) });
    e.apply({ type: 'RETREAT', combatantId: 'mira', roll: app(2) });
    expect(e.view().prompt).toMatchObject({ kind: 'redirect', subjectId: 'orc', choices: [{ id: 'bram' }, { id: 'lost' }] });
    expect(e.apply({ type: 'REDIRECT', targetId: 'bram' })[0]!.text).toBe("Orc's target is gone: the GM redirects the action to Bram.");
    expect(e.view().prompt).toMatchObject({ kind: 'defence', subjectId: 'bram' });
  });

  it('R-C7 the fight ends by itself when every enemy is dead, down or gone', () => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies', { hp: 1, str: 2 })]);
    const lines = e.apply({ type: 'APPLY_DAMAGE', targetId: 'orc', amount: 5, source: 'Bram' });
    expect(e.view().phase).toBe('ended');
    expect(texts(lines)).toContain('The fight is over: Every enemy is dead, down or gone.');
  });
});

describe('wounds (§4.6)', () => {
  const wounded = (sheet: Record<string, string | number | boolean> = {}) => fight([seed('bram', 'party', sheet), seed('orc', 'enemies')]);

  it('a wound takes a slot; the same type again is the player\'s choice: worsen it or take a new Light one', () => {
    const e = wounded();
    e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'burns', source: 'burning tavern' });
    expect(() => e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'burns', source: 'dragon' })).toThrow('Bram already has burns: the player chooses to worsen it or take a new Light wound.');
    e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'burns', choice: 'newSlot', source: 'dragon' });
    expect(who(e, 'bram').wounds.map((w) => w.severity)).toEqual(['light', 'light']);
    e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'burns', choice: 'worsen', source: 'dragon' });
    expect(who(e, 'bram').wounds.map((w) => w.severity)).toEqual(['severe', 'light']);
  });

  it('a permanent wound lowers an attribute by 1 and keeps its slot for good', () => {
    const e = wounded();
    e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'nerveDamage', source: 'lightning', severity: 'severe' });
    expect(() => e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'nerveDamage', choice: 'worsen', source: 'trap' })).toThrow('The wound becomes permanent: say which attribute it lowers.');
    const lines = e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'nerveDamage', choice: 'worsen', attribute: 'wil', source: 'trap' });
    expect(lines[0]!.text).toBe("Bram's nerve damage worsens to permanent (trap): 1/10 slots. WIL −1 (9/9); the slot is lost for good.");
    expect(() => e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'nerveDamage', choice: 'worsen', attribute: 'wil', source: 'x' })).toThrow("Bram's nerve damage is already permanent: take a new Light wound instead.");
  });

  it('R-C26 the wounds module is an option: without it GAIN_WOUND is refused', () => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies')], { wounds: false });
    expect(() => e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'burns', source: 'fire' })).toThrow('This campaign does not use the wounds module.');
  });

  it('R-C26 with no free slot a repeated wound must worsen; a permanent one makes the player drop an item', () => {
    const e = wounded({ gearSlots: 9 });
    e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'frostbite', source: 'blizzard' });
    expect(() => e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'frostbite', choice: 'newSlot', source: 'ice' })).toThrow('Bram has no free slot: the frostbite must worsen (R-C26).');
    const full = wounded({ gearSlots: 9 });
    full.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'poisoning', severity: 'permanent', attribute: 'str', source: 'venom' });
    expect(() => full.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'poisoning', choice: 'newSlot', source: 'venom' })).toThrow('Bram has no free slot for the poisoning: drop an item to make room (R-C26).');
    const lines = full.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'poisoning', choice: 'newSlot', dropItem: true, source: 'venom' });
    expect(lines[0]!.rulings).toEqual(['R-C26']);
    expect(who(full, 'bram').gearSlots).toBe(8);
  });
});

describe('consequences on the campaign (§4.6, §6.5)', () => {
  it('lists Injuries and wounds as they happen and carries the condition once the fight ends', () => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies')], { hitLocations: true });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'bram', amount: 2, source: 'axe', attribute: 'str' });
    e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(20) });
    e.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(6), strRoll: app(1) });
    e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'burns', source: 'torch' });
    const during = e.rules.consequences!(e.snapshot);
    expect(during.carry).toBeNull();
    expect(during.injuries.map((i) => [i.characterId, i.name, i.category])).toEqual([['char-bram', 'Left leg injury', 'injury'], ['char-bram', 'Light burns', 'wound']]);
    e.apply({ type: 'END_COMBAT', outcome: 'the orc flees' });
    const after = e.rules.consequences!(e.snapshot);
    expect(after.carry).toEqual([{ characterId: 'char-bram', state: expect.objectContaining({ hp: 4, str: 8, nextInitiativeDisadvantage: true, failedCriticalSave: true, fatigue: 0 }) }]);
    // The next fight starts from that condition with the running records.
    const carried = e.rules.carriedIn!(after.carry![0]!.state, after.injuries.map((i) => i.data));
    const next = fight([seed('bram', 'party', {}, carried), seed('orc', 'enemies')]);
    const bram = next.view().order.find((c) => c.id === 'bram')!;
    const stat = (label: string) => bram.stats?.find((s) => s.label === label)?.value;
    expect([stat('STR'), stat('Slots')]).toEqual(['8/10', '2/10']);
    expect(bram.tags).toContain('next initiative save at disadvantage');
  });

  it('a carried wound worsened here becomes a new record that supersedes the old one', () => {
    const old = { id: 'w-old', kind: 'wound', type: 'frostbite', severity: 'light', attribute: null, source: 'winter', trainedBack: false };
    const e = fight([seed('bram', 'party', {}, { wounds: [old] }), seed('orc', 'enemies')]);
    e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'frostbite', choice: 'worsen', source: 'ice' });
    const [record] = e.rules.consequences!(e.snapshot).injuries;
    expect(record!.data).toMatchObject({ severity: 'severe', supersedes: 'w-old' });
    const carried = e.rules.carriedIn!({}, [old, record!.data]);
    expect((carried['wounds'] as { severity: string }[]).map((w) => w.severity)).toEqual(['severe']);
  });
});

describe('prompt choices carry their answer (the runner sends { type: prompt.answer, ...answer })', () => {
  /** Presses the prompt's button `id`, as the runner does, with the dice given. */
  const press = (e: ReturnType<typeof fight>, id: string, extra: Record<string, unknown> = {}) => {
    const prompt = e.view().prompt!;
    const choice = prompt.choices.find((c) => c.id === id)!;
    return e.apply({ ...promptAnswerEvent(prompt, choice), ...extra });
  };

  it('an initiative DEX save names its PC', () => {
    const e = fight([seed('mirah', 'party'), seed('orc', 'enemies', { weaponDie: 8 })]);
    intend(e, 'orc', 'melee', 'mirah');
    intend(e, 'mirah', 'ranged', 'orc');
    lock(e);
    expect(e.view().prompt).toMatchObject({ kind: 'dexSaves', choices: [{ id: 'mirah', answer: { combatantId: 'mirah' } }] });
    press(e, 'mirah', { roll: app(1) });
    expect(ctx(e).dexSaves['mirah']).toMatchObject({ passed: true });
  });

  it('a Parry names its attacker; the damage roll its target', () => {
    const e = fight([seed('bram', 'party', { weaponDie: 8, hpMax: 6, hp: 6 }), seed('orc', 'enemies', { weaponDie: 8, armor: 1, hpMax: 8, hp: 8 })]);
    intend(e, 'bram', 'spell');
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    expect(e.view().prompt!.choices.map((c) => c.answer)).toEqual([
      { defence: 'none' }, { defence: 'block' }, { defence: 'dodge' }, { defence: 'fightBack', attackerId: 'orc' }, { defence: 'parry', attackerId: 'orc' },
    ]);
    press(e, 'parry:orc');
    expect(ctx(e).moment.defences['bram']).toEqual({ kind: 'parry', attackerId: 'orc' });
    expect(e.view().prompt).toMatchObject({ kind: 'strike', choices: [{ answer: { targetId: 'bram' } }] });
    press(e, 'bram', { roll: app(5, 2) });
    expect(e.view().prompt?.kind).not.toBe('strike');
  });
});
