// Teams' worked examples (RULES.md §2.7) by their IDs, then the turn, reaction, attack, damage and death rules of
// §2.3–§2.6 and every R-T ruling whose alternative changes behaviour, all through the event-sourced kernel.
import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../encounter/kernel.ts';
import type { GmEvent } from '../../encounter/types.ts';
import { teamsEncounter } from './encounter.ts';
import { SPEAR, activeName, app, attack, ctx, encounter, fight, pick, playRound, seed, teamPicking, turns, who } from './testing.ts';
import type { EncounterEngine } from '../../encounter/kernel.ts';

const tagsOf = (e: EncounterEngine, id: string) => e.view().order.find((c) => c.id === id)!.tags;
const texts = (lines: { text: string }[]) => lines.map((l) => l.text);
/** A target that cannot react (no stamina), so hits land without a defence window. */
const still = (id: string, side: string, sheet: Record<string, string | number | boolean> = {}) => seed(id, side, { stamina: 0, ...sheet });
const BOUDICA = { strength: 6, combatSkill: 6, athletics: 4, martial: 1, fortitude: 1, constitution: 4, ...SPEAR };
const BOW = { weaponName: 'Shortbow', weaponAttributes: 'dexterity', weaponProficiencies: 'finesse', weaponDelivery: 'projectile', weaponDamage: 4, weaponCritThreshold: 20 } as const;

describe('§2.7 worked examples', () => {
  it('TEAMS-01 initiative from the instigator: [Players, Guards, Townsfolk]; the instigator opens with the attack', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('roland', 'party'), seed('clementine', 'party'), still('guard', 'gm'), seed('baker', 'gm')] });
    e.apply({ type: 'ADD_TEAM', key: 'town', label: 'Townsfolk' });
    e.apply({ type: 'SET_TEAM', combatantId: 'baker', team: 'town' });
    e.apply({ type: 'SET_TEAM_ORDER', teams: ['town', 'gm', 'party'] });
    e.apply({ type: 'SET_INSTIGATOR', combatantId: 'clementine', attackedTeam: 'gm' });
    expect(ctx(e).teamOrder).toEqual(['party', 'gm', 'town']);
    expect(() => e.apply({ type: 'SET_TEAM_ORDER', teams: ['gm', 'party', 'town'] })).toThrow('Party started the fight against Enemies: those two go first and second.');
    e.apply({ type: 'SET_TEAM_ORDER', teams: ['party', 'gm', 'town'] });
    e.apply({ type: 'START' });
    // The team may send anyone first; the instigator's first turn opens with the triggering attack (R-T1b).
    turns(e, ['roland', 'guard', 'baker']);
    const lines = pick(e, 'clementine');
    expect(texts(lines)).toContain("Clementine's turn (Party): 3 actions, reaction ready. It opens with the attack that started the fight.");
    expect(e.view().prompt).toMatchObject({ kind: 'openingAttack', answer: 'OPENING_ATTACK', choices: [{ id: 'waive' }] });
    expect(() => e.apply({ type: 'ACTION', kind: 'move' })).toThrow("Clementine's turn opens with the attack that started the fight (R-T1b)");
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('R-T1b');
    e.apply(attack('clementine', 'guard', [3, 3], 5));
    expect(e.view().prompt).toBeNull();
    expect(e.view().turn!.actionsLeft).toBe(2);
    // Waived instead, and with the ruling off there is no prompt at all.
    const waived = encounter();
    waived.apply({ type: 'ADD_COMBATANTS', combatants: [seed('clementine', 'party'), seed('guard', 'gm')] });
    waived.apply({ type: 'SET_INSTIGATOR', combatantId: 'clementine' });
    waived.apply({ type: 'START' });
    pick(waived, 'clementine');
    expect(waived.apply({ type: 'OPENING_ATTACK', decision: 'waive' })[0]).toMatchObject({ text: "The GM waives Clementine's opening attack.", rulings: ['R-T1b'] });
    waived.apply({ type: 'ACTION', kind: 'move' });
    const off = encounter({ prefillInstigatorAttack: false });
    off.apply({ type: 'ADD_COMBATANTS', combatants: [seed('clementine', 'party'), seed('guard', 'gm')] });
    off.apply({ type: 'SET_INSTIGATOR', combatantId: 'clementine' });
    off.apply({ type: 'START' });
    pick(off, 'clementine');
    expect(off.view().prompt).toBeNull();
  });

  it('TEAMS-02 alternation: P, G, P, G… until all 8 have acted; in round 2 the players may send P4 first', () => {
    const e = fight(['roland', 'clementine', 'p3', 'p4'].map((id) => seed(id, 'party')), ['captain', 'g1', 'g2', 'g3'].map((id) => seed(id, 'gm')));
    expect(turns(e, ['roland', 'captain', 'clementine', 'g1', 'p3', 'g2', 'p4', 'g3'])).toEqual(['party', 'gm', 'party', 'gm', 'party', 'gm', 'party', 'gm']);
    expect(e.view().round).toBe(2);
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['roland', 'clementine', 'p3', 'p4']);
    pick(e, 'p4');
    expect(activeName(e)).toBe('P4');
  });

  it('TEAMS-03 running out: 4 players against 2 guards go P, G, P, G, P, P', () => {
    const e = fight(['p1', 'p2', 'p3', 'p4'].map((id) => seed(id, 'party')), ['g1', 'g2'].map((id) => seed(id, 'gm')));
    const lines: string[] = [];
    const sequence = ['p1', 'g1', 'p2', 'g2', 'p3', 'p4'].map((id) => {
      lines.push(...texts(pick(e, id)));
      const team = who(e, id).team;
      lines.push(...texts(e.apply({ type: 'END_TURN' })));
      return team;
    });
    expect(sequence).toEqual(['party', 'gm', 'party', 'gm', 'party', 'party']);
    expect(lines).toContain('Enemies have nobody left to act this round. Party picks a member to act.');
    expect(e.view().round).toBe(2);
  });

  it('TEAMS-04 unconscious and revived: Roland, knocked out before acting, takes his turn after the guards\' next', () => {
    const setup = () => {
      const e = fight(['roland', 'clementine', 'petra'].map((id) => seed(id, 'party')), ['g1', 'g2', 'g3'].map((id) => seed(id, 'gm')));
      turns(e, ['petra']);
      pick(e, 'g1');
      return e;
    };
    const e = setup();
    // G1 knocks Roland out: 18 damage leaves 6 health, more missing than his constitution 4.
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'roland', amount: 18, source: 'G1\'s club' });
    e.apply({ type: 'CONSCIOUSNESS', decision: 'unconscious' });
    expect(tagsOf(e, 'roland')).toContain('unconscious');
    e.apply({ type: 'END_TURN' });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['clementine']);
    pick(e, 'clementine');
    const lines = e.apply({ type: 'ACTION', kind: 'resuscitate', targetId: 'roland', dice: [6, 4], bonus: 0, testRoll: app(4, 3), luckRoll: app(8) });
    expect(lines[0]!.text).toBe('Clementine goes prone and tries to resuscitate Roland: d6 + d4 [4, 3] = 7 against 6: Roland is conscious again. 1 action left.');
    expect(who(e, 'clementine').prone).toBe(true);
    e.apply({ type: 'END_TURN' });
    turns(e, ['g2']);
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['roland']);
    pick(e, 'roland');
    e.apply({ type: 'END_TURN' });
    turns(e, ['g3']);
    expect(e.view().round).toBe(2);
    // Had Roland already acted, he could not be picked again after reviving.
    const acted = fight(['roland', 'clementine'].map((id) => seed(id, 'party')), ['g1', 'g2'].map((id) => seed(id, 'gm')));
    turns(acted, ['roland', 'g1']);
    acted.apply({ type: 'OVERRIDE', targetId: 'roland', field: 'conscious', value: 0, note: 'knocked out' });
    acted.apply({ type: 'OVERRIDE', targetId: 'roland', field: 'conscious', value: 1, note: 'revived' });
    expect(() => pick(acted, 'roland')).toThrow('Roland has already taken a turn this round.');
  });

  it('TEAMS-06 surprise with an unsurprisable defender: round 0 Ga, Clementine, Gc; round 1 G, P, G, P, P', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('roland', 'party'), seed('clementine', 'party', { unsurprisable: true }), seed('petra', 'party'), seed('ga', 'gm'), seed('gb', 'gm'), seed('gc', 'gm')] });
    e.apply({ type: 'SET_INSTIGATOR', combatantId: 'ga', attackedTeam: 'party' });
    e.apply({ type: 'DECLARE_SURPRISE', team: 'gm' });
    const start = e.apply({ type: 'START' });
    expect(texts(start)).toContain('Surprise round: only Enemies act, with anyone who cannot be surprised; the surprised cannot react.');
    expect(e.view().round).toBe(0);
    expect(e.view().counters).toContainEqual({ key: 'surprise', label: 'Surprise round', value: 'Enemies' });
    pick(e, 'ga');
    e.apply({ type: 'OPENING_ATTACK', decision: 'waive' });
    // Roland and Petra are surprised: no reactions in round 0 (R-T5).
    expect(() => e.apply({ type: 'REACTION_TEST', reactorId: 'roland', reaction: 'dodge', difficulty: 5, against: 'a net', testRoll: app(3, 3), luckRoll: app(4) }))
      .toThrow('Roland is surprised and cannot react until the surprise round ends (R-T5).');
    e.apply({ type: 'END_TURN' });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['clementine']);
    pick(e, 'clementine');
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'gb', amount: 30, source: 'Clementine' });
    e.apply({ type: 'LUCK_TEST', luckRoll: app(2) });
    expect(who(e, 'gb').dead).toBe(true);
    e.apply({ type: 'END_TURN' });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['gc']);
    turns(e, ['gc']);
    expect(e.view().round).toBe(1);
    expect(turns(e, ['ga', 'roland', 'gc', 'clementine', 'petra'])).toEqual(['gm', 'party', 'gm', 'party', 'party']);
    // With the ruling off, the surprised may react in round 0.
    const lenient = encounter({ surprisedCannotReact: false });
    lenient.apply({ type: 'ADD_COMBATANTS', combatants: [seed('roland', 'party'), seed('ga', 'gm')] });
    lenient.apply({ type: 'DECLARE_SURPRISE', team: 'gm' });
    lenient.apply({ type: 'START' });
    lenient.apply({ type: 'REACTION_TEST', reactorId: 'roland', reaction: 'dodge', difficulty: 5, against: 'a net', testRoll: app(3, 3), luckRoll: app(4) });
  });

  it('TEAMS-07 extended reload: Attack, Seek Cover, Reload starts (1 of 2); next turn continue leaves 2 actions, abandon 3', () => {
    const start = () => {
      const e = fight([seed('petra', 'party', BOW)], [still('enemy', 'gm', { evasion: 20 })]);
      pick(e, 'petra');
      e.apply(attack('petra', 'enemy', [2, 2], 5, { attribute: 'dexterity', proficiency: 'finesse' }));
      e.apply({ type: 'ACTION', kind: 'seekCover' });
      const started = e.apply({ type: 'ACTION', kind: 'other', name: 'Reload', cost: 2 });
      expect(started[0]!.text).toBe('Petra starts Reload: 1 of 2 actions paid; it finishes on a later turn.');
      expect(tagsOf(e, 'petra')).toContain('Reload 1/2');
      e.apply({ type: 'END_TURN' });
      turns(e, ['enemy']);
      pick(e, 'petra');
      return e;
    };
    const e = start();
    expect(e.snapshot.matches({ running: 'extendedChoice' })).toBe(true);
    expect(e.view().prompt).toMatchObject({ kind: 'extended', answer: 'EXTENDED', choices: [{ id: 'continue' }, { id: 'abandon' }] });
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('Petra must first continue or abandon Reload (R-T10).');
    expect(() => e.apply(attack('petra', 'enemy', [2, 2], 5, { attribute: 'dexterity', proficiency: 'finesse' }))).toThrow('R-T10');
    const lines = e.apply({ type: 'EXTENDED', decision: 'continue' });
    expect(lines[0]!.text).toBe('Petra finishes Reload (1 more action). 2 actions left.');
    expect(e.view().turn!.actionsLeft).toBe(2);
    const abandoned = start();
    abandoned.apply({ type: 'EXTENDED', decision: 'abandon' });
    expect(abandoned.view().turn!.actionsLeft).toBe(3);
    expect(who(abandoned, 'petra').inProgress).toBeNull();
  });

  it('TEAMS-08 attack test: strength d6 + combat d6 + martial 1, faces 2 and 3 make 6 against evasion 6: a hit', () => {
    const e = fight([seed('boudica', 'party', BOUDICA)], [still('enemy', 'gm', { physicalDeflection: 8 })]);
    pick(e, 'boudica');
    const lines = e.apply(attack('boudica', 'enemy', [2, 3], 5));
    expect(lines[0]!.text).toMatch(/^Boudica attacks Enemy with Spear: d6 \+ d6 \[2, 3\] = 5 \+ 1 = 6; luck 5\. Against evasion 6: hit\./);
    expect(() => e.apply(attack('boudica', 'enemy', [2, 7], 5))).toThrow("7 is not a face of Boudica's d6.");
    expect(() => e.apply(attack('boudica', 'enemy', [2], 5))).toThrow("Boudica's attack test needs 2 dice: d6 + d6; 1 given.");
  });

  it('TEAMS-09 damage and deflection: 6 + spear 4 = 10 piercing − physical 8 = 2 taken', () => {
    const e = fight([seed('boudica', 'party', BOUDICA)], [still('enemy', 'gm', { physicalDeflection: 8 })]);
    pick(e, 'boudica');
    const lines = e.apply(attack('boudica', 'enemy', [2, 3], 5));
    expect(lines[0]!.text).toContain('Damage 6 + 4 = 10 piercing − deflection 8 = 2: Enemy endurance 10/12, health 12/12.');
    expect(who(e, 'enemy').endurance).toBe(10);
  });

  it('TEAMS-10 critical: luck 19 at 19+: 6 + 8 − 8 = 6; a test of 3 still hits for 3 + 8 − 8 = 3', () => {
    const e = fight([seed('boudica', 'party', BOUDICA)], [still('enemy', 'gm', { physicalDeflection: 8, evasion: 6 })]);
    pick(e, 'boudica');
    const lines = e.apply(attack('boudica', 'enemy', [2, 3], 19));
    expect(lines[0]!.text).toContain('luck 19 ≥ 19: critical, cannot miss');
    expect(who(e, 'enemy').endurance).toBe(6);
    const low = fight([seed('boudica', 'party', BOUDICA)], [still('enemy', 'gm', { physicalDeflection: 8, evasion: 6 })]);
    pick(low, 'boudica');
    const text = low.apply(attack('boudica', 'enemy', [1, 1], 19))[0]!.text;
    expect(text).toContain('critical hit');
    expect(text).toContain('Damage 3 + critical damage 8 = 11 piercing − deflection 8 = 3');
    expect(who(low, 'enemy').endurance).toBe(9);
  });

  it('TEAMS-11 stray projectile: luck 1 sends Agnessa\'s arrow onto her ally next to the enemy, against the ally\'s defences', () => {
    const e = fight([seed('agnessa', 'party', BOW), still('ally', 'party', { evasion: 5, physicalDeflection: 3 })], [still('enemy', 'gm', { evasion: 20 })]);
    pick(e, 'agnessa');
    const lines = e.apply(attack('agnessa', 'enemy', [4, 4], 1, { attribute: 'dexterity', proficiency: 'none', nearbyIds: ['ally'] }));
    expect(lines[0]!.text).toContain('Luck 1: the shot strays onto Ally.');
    expect(lines[0]!.text).toContain('Against evasion 5: hit.');
    expect(lines[0]!.rulings).toContain('R-T16');
    expect(who(e, 'ally').endurance).toBe(12 - (8 + 4 - 3));
    expect(who(e, 'enemy').endurance).toBe(12);
    // A melee weapon never strays, and nobody nearby means no stray.
    const alone = fight([seed('agnessa', 'party', BOW)], [still('enemy', 'gm', { evasion: 5 })]);
    pick(alone, 'agnessa');
    alone.apply(attack('agnessa', 'enemy', [4, 4], 1, { attribute: 'dexterity', proficiency: 'none' }));
    expect(who(alone, 'enemy').endurance).toBe(0);
  });

  it('TEAMS-12 multiple attack penalty: the second attack rolls 5 − 2 = 3 and misses; a third takes −4; it resets next round', () => {
    const e = fight([seed('agnessa', 'party', BOW)], [still('enemy', 'gm', { evasion: 4, enduranceMax: 99, endurance: 99, healthMax: 99, health: 99 })]);
    pick(e, 'agnessa');
    const dex = { attribute: 'dexterity', proficiency: 'none' } as const;
    e.apply(attack('agnessa', 'enemy', [3, 3], 5, dex));
    const second = e.apply(attack('agnessa', 'enemy', [2, 3], 5, dex))[0]!;
    expect(second.text).toContain('= 5 − 2 (second attack this round) = 3; luck 5. Against evasion 4: miss.');
    expect(second.rulings).toContain('R-T15');
    expect(e.apply(attack('agnessa', 'enemy', [6, 6], 5, dex))[0]!.text).toContain('− 4 (third attack this round) = 8');
    e.apply({ type: 'END_TURN' });
    turns(e, ['enemy']);
    expect(who(e, 'agnessa').attacksThisRound).toBe(0);
  });

  it('TEAMS-14 size: Fabian (4) against a goblin (3) sees evasion +1 and deflection −1; the goblin sees the reverse', () => {
    const e = fight([still('fabian', 'party', { size: 4, evasion: 6, physicalDeflection: 2 })], [still('goblin', 'gm', { size: 3, evasion: 6, physicalDeflection: 2 })]);
    pick(e, 'fabian');
    expect(e.apply(attack('fabian', 'goblin', [3, 3], 5))[0]!.text).toContain('Against evasion 7 (size + 1): miss.');
    e.apply(attack('fabian', 'goblin', [5, 4], 5)); // 9 − 2 = 7: hits; 7 + 4 − (2 − 1) = 10
    expect(who(e, 'goblin').endurance).toBe(2);
    e.apply({ type: 'END_TURN' });
    pick(e, 'goblin');
    expect(e.apply(attack('goblin', 'fabian', [2, 3], 5))[0]!.text).toContain('Against evasion 5 (size − 1): hit. Damage 5 + 4 = 9 piercing − deflection 3 = 6');
  });

  it('TEAMS-15 endurance: Boudica at 12/12 takes 7: endurance 5, harmed, not bloodied', () => {
    const e = fight([seed('boudica', 'party', BOUDICA)], [seed('enemy', 'gm')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'boudica', amount: 7, source: 'a spear' });
    expect(who(e, 'boudica').endurance).toBe(5);
    expect(tagsOf(e, 'boudica')).toContain('harmed');
    expect(tagsOf(e, 'boudica')).not.toContain('bloodied');
  });

  it('TEAMS-16 health and Fortify: 10 more: endurance 0, health 7, missing 5 > CON 4; Fortify d6 + d4 + 1 = 7 ≥ 5 keeps her conscious', () => {
    const e = fight([seed('boudica', 'party', BOUDICA)], [seed('enemy', 'gm')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'boudica', amount: 7, source: 'a spear' });
    const lines = e.apply({ type: 'APPLY_DAMAGE', targetId: 'boudica', amount: 10, source: 'a spear' });
    expect([who(e, 'boudica').endurance, who(e, 'boudica').health]).toEqual([0, 7]);
    expect(texts(lines)).toContain('Boudica is missing 5 health, more than their constitution 4: Fortify (against 5) or fall unconscious?');
    expect(e.view().prompt).toMatchObject({ kind: 'consciousness', answer: 'CONSCIOUSNESS', choices: [{ id: 'fortify', label: 'Fortify (d6 + d4 + 1)' }, { id: 'unconscious' }] });
    const fortify = e.apply({ type: 'CONSCIOUSNESS', decision: 'fortify', testRoll: app(4, 2), luckRoll: app(3) });
    expect(fortify[0]!.text).toBe('Boudica fortifies (1 stamina, the reaction): d6 + d4 [4, 2] = 6 + 1 = 7 against missing health 5: stays conscious.');
    expect(who(e, 'boudica')).toMatchObject({ conscious: true, stamina: 3, reactionSpent: true });
    expect(tagsOf(e, 'boudica')).toEqual(expect.arrayContaining(['harmed', 'bloodied', 'reaction spent']));
  });

  it('TEAMS-17 death: 8 more at 7 health: zero health, unconscious, overkill 8 > 7; luck 1 < 10: dead', () => {
    const e = fight([seed('boudica', 'party', BOUDICA)], [seed('enemy', 'gm')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'boudica', amount: 7, source: 'a spear' });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'boudica', amount: 10, source: 'a spear' });
    e.apply({ type: 'CONSCIOUSNESS', decision: 'fortify', testRoll: app(4, 2), luckRoll: app(3) });
    const lines = e.apply({ type: 'APPLY_DAMAGE', targetId: 'boudica', amount: 8, source: 'a spear' });
    expect(lines[0]!.text).toBe('Boudica takes 8 damage from a spear: endurance 0/12, health 0/12 (harmed, bloodied), unconscious at zero health.');
    expect(e.view().prompt).toMatchObject({ kind: 'death', answer: 'LUCK_TEST', choices: [{ id: 'roll' }] });
    const death = e.apply({ type: 'LUCK_TEST', luckRoll: app(1) });
    expect(death[0]!.text).toBe('Boudica risks death: luck d20 [1] = 1 against 10: fails and dies.');
    expect(who(e, 'boudica').dead).toBe(true);
    expect(e.view().order.find((c) => c.id === 'boudica')).toMatchObject({ status: 'removed', removedReason: 'dead (a spear)' });
  });
});

describe('turn resources (§2.3)', () => {
  const duel = (options: Record<string, string | number | boolean> = {}, sheet: Record<string, string | number | boolean> = {}) => {
    const e = fight([seed('hero', 'party', sheet), seed('ally', 'party')], [seed('foe', 'gm')], options);
    pick(e, 'hero');
    return e;
  };

  it('three actions a turn, Move once, Sprint after a Move for 1 stamina', () => {
    const e = duel();
    expect(() => e.apply({ type: 'ACTION', kind: 'sprint' })).toThrow('Hero must Move before Sprinting.');
    e.apply({ type: 'ACTION', kind: 'move' });
    expect(() => e.apply({ type: 'ACTION', kind: 'move' })).toThrow('Hero has already moved this turn: Sprint for another move (1 stamina).');
    e.apply({ type: 'ACTION', kind: 'sprint' });
    expect(who(e, 'hero').stamina).toBe(3);
    e.apply({ type: 'ACTION', kind: 'interact', note: 'opens the door' });
    expect(() => e.apply({ type: 'ACTION', kind: 'brandish' })).toThrow('Hero has no actions left this turn.');
    const tired = duel({}, { stamina: 0 });
    tired.apply({ type: 'ACTION', kind: 'move' });
    expect(() => tired.apply({ type: 'ACTION', kind: 'sprint' })).toThrow('Hero has no stamina left to Sprint.');
  });

  it('R-T8 Step and Move exclude each other and a Step does not unlock Sprint (option: they combine)', () => {
    const e = duel();
    // An item left in the form with a Step is ignored (it once crashed the log line for a combatant without it).
    expect(e.apply({ type: 'FREE_ACTION', kind: 'step', item: 'shield' })[0]!.text).toBe('Hero takes a 1 m Step instead of a Move (free).');
    expect(e.view().turn!.actionsLeft).toBe(3);
    expect(() => e.apply({ type: 'ACTION', kind: 'move' })).toThrow('Hero took a Step instead of a Move this turn (R-T8).');
    expect(() => e.apply({ type: 'ACTION', kind: 'sprint' })).toThrow('Hero must Move before Sprinting: a Step does not count (R-T8).');
    expect(() => e.apply({ type: 'FREE_ACTION', kind: 'step' })).toThrow('Hero has already taken a Step this turn.');
    const moved = duel();
    moved.apply({ type: 'ACTION', kind: 'move' });
    expect(() => moved.apply({ type: 'FREE_ACTION', kind: 'step' })).toThrow('Hero has moved this turn: a Step is instead of a Move (R-T8).');
    const loose = duel({ stepExcludesMove: false });
    loose.apply({ type: 'FREE_ACTION', kind: 'step' });
    loose.apply({ type: 'ACTION', kind: 'move' });
    loose.apply({ type: 'ACTION', kind: 'sprint' });
  });

  it('Guard, Wait and Ready cost an action and end the turn; Stand Up needs prone; Drop Prone is free', () => {
    for (const kind of ['guard', 'wait'] as const) {
      const e = duel();
      e.apply({ type: 'ACTION', kind });
      expect(teamPicking(e)).toBe('gm');
    }
    const e = duel();
    expect(() => e.apply({ type: 'ACTION', kind: 'ready' })).toThrow('Ready an Action needs a trigger and the action it fires.');
    expect(() => e.apply({ type: 'ACTION', kind: 'standUp' })).toThrow('Hero is not prone.');
    e.apply({ type: 'FREE_ACTION', kind: 'dropProne' });
    expect(e.view().turn!.actionsLeft).toBe(3);
    e.apply({ type: 'ACTION', kind: 'standUp' });
    e.apply({ type: 'ACTION', kind: 'ready', trigger: 'a foe comes through the door', readied: 'shoot it' });
    expect(tagsOf(e, 'hero')).toContain('readied: shoot it (when a foe comes through the door)');
    expect(activeName(e)).toBeNull();
  });

  it('Short Task costs 3 actions with a test; with fewer left it becomes an extended action (R-T10)', () => {
    const e = duel();
    expect(() => e.apply({ type: 'ACTION', kind: 'shortTask', name: 'Pick the lock', dice: [6, 6] })).toThrow('Set the Short Task difficulty.');
    const lines = e.apply({ type: 'ACTION', kind: 'shortTask', name: 'Pick the lock', difficulty: 8, dice: [6, 6], bonus: 1, testRoll: app(4, 3), luckRoll: app(20) });
    expect(lines[0]!.text).toBe('Hero performs a short task (Pick the lock): d6 + d6 [4, 3] = 7 + 1 + 4 (luck 20+) = 12 against 8: success. 0 actions left.');
    const later = duel();
    later.apply({ type: 'ACTION', kind: 'move' });
    later.apply({ type: 'ACTION', kind: 'shortTask', name: 'Pick the lock', difficulty: 8, dice: [6, 6] });
    expect(who(later, 'hero').inProgress).toMatchObject({ name: 'Pick the lock', paid: 2, cost: 3 });
    later.apply({ type: 'END_TURN' });
    turns(later, ['foe', 'ally']);
    pick(later, 'hero');
    expect(teamsEncounter.rollsFor!(later.snapshot, { type: 'EXTENDED', decision: 'continue' }).map((r) => r.notation)).toEqual(['1d6+1d6', '1d20']);
    expect(() => later.apply({ type: 'EXTENDED', decision: 'continue' })).toThrow("Hero's Pick the lock roll is missing.");
    const done = later.apply({ type: 'EXTENDED', decision: 'continue', testRoll: app(1, 2), luckRoll: app(3) });
    expect(done[0]!.text).toBe('Hero finishes Pick the lock (1 more action): d6 + d6 [1, 2] = 3 against 8, failure. 2 actions left.');
  });

  it('R-T10 an extended action may be abandoned later in the turn without refund', () => {
    const e = duel();
    e.apply({ type: 'ACTION', kind: 'move' });
    e.apply({ type: 'ACTION', kind: 'other', name: 'Climb the wall', cost: 6 });
    expect(who(e, 'hero').inProgress).toMatchObject({ paid: 2, cost: 6 });
    e.apply({ type: 'END_TURN' });
    turns(e, ['foe', 'ally']);
    pick(e, 'hero');
    expect(e.apply({ type: 'EXTENDED', decision: 'continue' })[0]!.text).toBe('Hero continues Climb the wall: 5 of 6 actions paid.');
    expect(() => e.apply({ type: 'EXTENDED', decision: 'continue' })).toThrow('Hero has already continued Climb the wall this turn.');
    e.apply({ type: 'EXTENDED', decision: 'abandon' });
    expect([who(e, 'hero').inProgress, e.view().turn!.actionsLeft]).toEqual([null, 0]);
  });

  it('R-T9 Command: 1 action + 2 focus, once per target; the ally acts at once and its attack counts toward its penalty', () => {
    const e = fight([seed('hero', 'party'), seed('ally', 'party'), seed('sleeper', 'party', { unconscious: true })], [still('foe', 'gm', { evasion: 30, enduranceMax: 99, endurance: 99 })]);
    pick(e, 'hero');
    expect(() => e.apply({ type: 'ACTION', kind: 'command', targetId: 'sleeper' })).toThrow('Sleeper is unconscious and cannot be commanded (R-T9).');
    expect(() => e.apply({ type: 'ACTION', kind: 'command', targetId: 'foe' })).toThrow('Foe is not on Hero\'s team.');
    e.apply({ type: 'ACTION', kind: 'command', targetId: 'ally' });
    expect([who(e, 'hero').focus, e.view().turn!.actionsLeft]).toEqual([2, 2]);
    expect(() => e.apply({ type: 'ACTION', kind: 'command', targetId: 'ally' })).toThrow('Hero has already commanded Ally this turn: once per target.');
    expect(() => e.apply({ type: 'ACTION', kind: 'guard', actorId: 'ally' })).toThrow('A Command gives Ally one single action: Guard is not one.');
    e.apply(attack('ally', 'foe', [1, 1], 5, { via: 'command' }));
    expect(who(e, 'ally').attacksThisRound).toBe(1);
    expect(e.view().turn!.actionsLeft).toBe(2);
    expect(() => e.apply(attack('ally', 'foe', [1, 1], 5, { via: 'command' }))).toThrow('Ally has no action from a Command this turn.');
    const poor = fight([seed('hero', 'party', { focus: 1 }), seed('ally', 'party')], [seed('foe', 'gm')]);
    pick(poor, 'hero');
    expect(() => poor.apply({ type: 'ACTION', kind: 'command', targetId: 'ally' })).toThrow('Hero needs 2 focus to Command; 1 focus left.');
  });

  it('R-T15 with "own turn only", a commanded attack neither counts nor is penalised later', () => {
    const e = fight([seed('hero', 'party'), seed('ally', 'party')], [still('foe', 'gm', { evasion: 30 })], { multipleAttackPenaltyScope: 'ownTurnOnly' });
    pick(e, 'hero');
    e.apply({ type: 'ACTION', kind: 'command', targetId: 'ally' });
    e.apply(attack('ally', 'foe', [1, 1], 5, { via: 'command' }));
    expect(who(e, 'ally').attacksThisRound).toBe(0);
  });
});

describe('reactions (§2.3, R-T6, R-T7)', () => {
  const dodgeTrap = (id: string): GmEvent => ({ type: 'REACTION_TEST', reactorId: id, reaction: 'dodge', difficulty: 5, against: 'a falling net', testRoll: app(3, 3), luckRoll: app(4) });

  it('R-T6 "both": one reaction a round and none again until the owner\'s turn starts', () => {
    const e = fight([seed('p1', 'party')], [seed('g1', 'gm')]);
    turns(e, ['p1']);
    pick(e, 'g1');
    const line = e.apply(dodgeTrap('p1'))[0]!;
    expect(line.text).toBe('P1: Dodge against a falling net (1 stamina): d6 + d4 [3, 3] = 6 against 5: success.');
    expect(() => e.apply(dodgeTrap('p1'))).toThrow('P1 has no reaction left: one a round, refreshed at the start of their turn (R-T6).');
    e.apply({ type: 'END_TURN' });
    // Round 2: a new round, but P1's turn has not started yet.
    expect(() => e.apply(dodgeTrap('p1'))).toThrow('R-T6');
    const strict = fight([seed('p1', 'party')], [seed('g1', 'gm')], { reactionCap: 'strictPerRound' });
    turns(strict, ['p1']);
    strict.apply(dodgeTrap('p1'));
    turns(strict, ['g1']);
    strict.apply(dodgeTrap('p1'));
  });

  it('R-T6 "both" versus "perTurnRefresh": a reaction used before the owner\'s turn in the same round', () => {
    const order = (options: Record<string, string>) => {
      const e = encounter(options);
      e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('p1', 'party'), seed('g1', 'gm'), seed('g2', 'gm')] });
      e.apply({ type: 'SET_TEAM_ORDER', teams: ['gm', 'party'] });
      e.apply({ type: 'START' });
      pick(e, 'g1');
      e.apply(dodgeTrap('p1'));
      e.apply({ type: 'END_TURN' });
      pick(e, 'p1');
      e.apply({ type: 'END_TURN' });
      return e;
    };
    expect(() => order({}).apply(dodgeTrap('p1'))).toThrow('R-T6');
    order({ reactionCap: 'perTurnRefresh' }).apply(dodgeTrap('p1'));
  });

  it('Wait gives an extra reaction until the owner\'s next turn', () => {
    const e = fight([seed('p1', 'party')], [seed('g1', 'gm')]);
    pick(e, 'p1');
    e.apply({ type: 'ACTION', kind: 'wait' });
    expect(tagsOf(e, 'p1')).toContain('waiting: +1 reaction');
    pick(e, 'g1');
    e.apply(dodgeTrap('p1'));
    e.apply(dodgeTrap('p1'));
    expect(() => e.apply(dodgeTrap('p1'))).toThrow('R-T6');
    expect(who(e, 'p1').stamina).toBe(2);
  });

  it('Resist costs focus and needs the GM\'s dice; a luck roll of 20 adds 4 to a test', () => {
    const e = fight([seed('p1', 'party')], [seed('g1', 'gm')]);
    expect(() => e.apply({ type: 'REACTION_TEST', reactorId: 'p1', reaction: 'resist', difficulty: 12, against: 'fear', testRoll: app(3), luckRoll: app(20) })).toThrow('Say which dice the Resist test rolls.');
    const line = e.apply({ type: 'REACTION_TEST', reactorId: 'p1', reaction: 'resist', difficulty: 12, against: 'fear', dice: [8], bonus: 1, testRoll: app(7), luckRoll: app(20) })[0]!;
    expect(line.text).toBe('P1: Resist against fear (1 focus): d8 [7] = 7 + 1 + 4 (luck 20+) = 12 against 12: success.');
    expect(who(e, 'p1').focus).toBe(3);
  });

  it('R-T7 a readied action fires as a reaction and uses it; without one it cannot fire; it expires at the owner\'s turn', () => {
    const e = fight([seed('p1', 'party', BOW)], [still('g1', 'gm', { evasion: 30 })]);
    pick(e, 'p1');
    e.apply({ type: 'ACTION', kind: 'ready', trigger: 'a guard moves', readied: 'shoot' });
    pick(e, 'g1');
    e.apply(dodgeTrap('p1'));
    expect(() => e.apply(attack('p1', 'g1', [1, 1], 5, { via: 'readied', attribute: 'dexterity', proficiency: 'none' }))).toThrow("P1's readied action cannot fire: no reaction is left (R-T7).");
    e.apply({ type: 'END_TURN' });
    pick(e, 'p1');
    expect(who(e, 'p1').readied).toBeNull();
    const fires = fight([seed('p1', 'party', BOW)], [still('g1', 'gm', { evasion: 30 })]);
    pick(fires, 'p1');
    fires.apply({ type: 'ACTION', kind: 'ready', trigger: 'a guard moves', readied: 'shoot' });
    pick(fires, 'g1');
    const line = fires.apply(attack('p1', 'g1', [1, 1], 5, { via: 'readied', attribute: 'dexterity', proficiency: 'none' }))[0]!;
    expect(line.rulings).toContain('R-T7');
    expect(who(fires, 'p1')).toMatchObject({ readied: null, reactionSpent: true, stamina: 4 });
    const free = fight([seed('p1', 'party')], [seed('g1', 'gm')], { readyUsesReaction: false });
    pick(free, 'p1');
    free.apply({ type: 'ACTION', kind: 'ready', trigger: 'a guard moves', readied: 'shout' });
    pick(free, 'g1');
    free.apply({ type: 'FIRE_READIED', combatantId: 'p1' });
    expect(who(free, 'p1').reactionSpent).toBe(false);
  });
});

describe('defence and damage (§2.4 steps 7–10)', () => {
  /** Hero (4 stamina, a metal sword, a wooden shield block 3) is attacked by a brute rolling 12 with damage 4. */
  const hit = (options: Record<string, string | number | boolean> = {}, heroSheet: Record<string, string | number | boolean> = {}) => {
    const e = fight(
      [still('brute', 'party', { weaponName: 'Axe', weaponDamage: 4, weaponCritThreshold: 20, weaponDamageType: 'slashing' })],
      [seed('hero', 'gm', { weaponName: 'Sword', shieldName: 'Shield', shieldBlock: 3, physicalDeflection: 2, elementalDeflection: 1, ...heroSheet })],
      options,
    );
    pick(e, 'brute');
    e.apply(attack('brute', 'hero', [6, 6], 5));
    return e;
  };

  it('R-T19 the defence is chosen after the hit is known: block, parry with either item, dodge, or take it', () => {
    const e = hit();
    expect(e.view().prompt).toMatchObject({ kind: 'defence', answer: 'DEFEND', subjectId: 'hero' });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'block', 'parry:weapon', 'parry:shield', 'dodge']);
    const lines = e.apply({ type: 'DEFEND', defence: 'parry', slot: 'weapon' });
    // 12 + 4 = 16 slashing − (deflection 2 + parry 1) = 13
    expect(lines[0]!.text).toBe('Hero reacts (1 stamina). Hero parries with Sword (+1; durability −1). Damage 12 + 4 = 16 slashing − deflection 3 = 13: Hero endurance 0/12, health 11/12 (harmed, bloodied).');
    expect(who(e, 'hero').items.weapon.durability).toBe(9);
  });

  it('durability: 10 for metal, 4 otherwise; a parry wears 1; broken items cannot block or parry', () => {
    const e = hit({}, { weaponMetal: false });
    expect(who(e, 'hero').items).toMatchObject({ weapon: { durability: 4, durabilityMax: 4 }, shield: { durability: 4, durabilityMax: 4 } });
    e.apply({ type: 'OVERRIDE', targetId: 'hero', field: 'weaponDurability', value: 0, note: 'snapped' });
    const again = hit({}, { weaponDurability: 1 });
    again.apply({ type: 'OVERRIDE', targetId: 'hero', field: 'weaponDurability', value: 0, note: 'snapped' });
    // The override dismissed the window; a fresh attack shows the broken sword is no longer offered.
    again.apply(attack('brute', 'hero', [6, 6], 5));
    expect(again.view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'block', 'parry:shield', 'dodge']);
    expect(() => again.apply({ type: 'DEFEND', defence: 'parry', slot: 'weapon' })).toThrow('A broken item cannot block or parry.');
  });

  it('Block: the shield takes damage − block value; beyond its durability the rest hits the wielder (R-T22)', () => {
    const e = hit({}, { shieldDurability: 20 });
    const lines = e.apply({ type: 'DEFEND', defence: 'block' });
    expect(lines[0]!.text).toContain('Hero blocks with Shield: 12 + 4 = 16 slashing − block 3 = 13 to the item, durability 7; Hero takes nothing.');
    expect(who(e, 'hero').endurance).toBe(12);
    const over = hit();
    over.apply({ type: 'DEFEND', defence: 'block' });
    expect(who(over, 'hero').items.shield!.durability).toBe(0);
    expect(who(over, 'hero').endurance).toBe(12 - 9); // 13 − 4 durability = 9, deflection not applied again
    const applied = hit({ blockOverflowDeflection: 'applied' });
    applied.apply({ type: 'DEFEND', defence: 'block' });
    expect(who(applied, 'hero').endurance).toBe(12 - 7);
  });

  it('R-T18 Dodge must meet the attack total (option: beat it); a critical cannot be dodged', () => {
    const e = hit();
    expect(teamsEncounter.rollsFor!(e.snapshot, { type: 'DEFEND', defence: 'dodge' }).map((r) => [r.path.join('.'), r.notation])).toEqual([['testRoll', '1d6+1d4'], ['luckRoll', '1d20']]);
    const line = e.apply({ type: 'DEFEND', defence: 'dodge', testRoll: app(6, 4), luckRoll: app(20) })[0]!;
    expect(line.text).toBe("Hero dodges (1 stamina): d6 + d4 [6, 4] = 10 + 4 (luck 20+) = 14 against the attack's 12: the attack misses.");
    const strict = hit({ dodgeTarget: 'beat' });
    strict.apply({ type: 'DEFEND', defence: 'dodge', testRoll: app(6, 2), luckRoll: app(20) });
    expect(who(strict, 'hero').endurance).toBe(0);
    const crit = fight([still('brute', 'party')], [seed('hero', 'gm')]);
    pick(crit, 'brute');
    crit.apply(attack('brute', 'hero', [6, 6], 20));
    expect(crit.view().prompt!.choices.map((c) => c.id)).not.toContain('dodge');
    expect(() => crit.apply({ type: 'DEFEND', defence: 'dodge', testRoll: app(6, 4), luckRoll: app(5) })).toThrow('A critical hit cannot miss, so it cannot be dodged (R-T18).');
  });

  it('R-T21 Parry adds to physical deflection only (option: elemental too); typeless damage is never reduced', () => {
    const fire = (options: Record<string, string> = {}) => {
      const e = fight([still('mage', 'party', { weaponName: 'Firebolt', weaponDamageType: 'fire', weaponDamage: 2 })], [seed('hero', 'gm', { weaponName: 'Sword', elementalDeflection: 1 })], options);
      pick(e, 'mage');
      e.apply(attack('mage', 'hero', [3, 3], 5));
      e.apply({ type: 'DEFEND', defence: 'parry', slot: 'weapon' });
      return who(e, 'hero').endurance;
    };
    expect(fire()).toBe(12 - (6 + 2 - 1));
    expect(fire({ parryScope: 'allDeflection' })).toBe(12 - (6 + 2 - 2));
    const e = fight([seed('hero', 'party', { physicalDeflection: 5, elementalDeflection: 5 })], [seed('foe', 'gm')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 3, source: 'a scream', damageType: 'psychic' });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 3, source: 'embers', damageType: 'fire' });
    expect(who(e, 'hero').endurance).toBe(12 - 3 - 1); // psychic unreduced; fire 3 − 5, minimum 1
  });

  it('R-T20 damage uses the penalised test (option: the test before the penalty)', () => {
    const second = (options: Record<string, boolean> = {}) => {
      const e = fight([still('brute', 'party')], [still('foe', 'gm', { evasion: 1, enduranceMax: 99, endurance: 99 })], options);
      pick(e, 'brute');
      e.apply(attack('brute', 'foe', [1, 1], 5));
      const before = who(e, 'foe').endurance;
      e.apply(attack('brute', 'foe', [3, 3], 5));
      return before - who(e, 'foe').endurance;
    };
    expect(second()).toBe(6 - 2 + 4);
    expect(second({ damageUsesPenalisedTest: false })).toBe(6 + 4);
  });

  it('R-T12 Guard: +1 evasion and deflection until the guard\'s next turn', () => {
    const e = fight([seed('hero', 'party', { physicalDeflection: 1 })], [still('brute', 'gm')]);
    pick(e, 'hero');
    e.apply({ type: 'ACTION', kind: 'guard' });
    pick(e, 'brute');
    expect(e.apply(attack('brute', 'hero', [3, 3], 5))[0]!.text).toContain('Against evasion 7 (guarding +1): miss.');
    e.apply(attack('brute', 'hero', [6, 6], 5)); // 12 − 2 = 10: hits; 10 + 4 − (1 + 1) = 12
    e.apply({ type: 'DEFEND', defence: 'none' });
    expect(who(e, 'hero').endurance).toBe(0);
    expect(who(e, 'hero').health).toBe(12);
  });

  it('R-T14 Intercept: the ally pays, becomes the target, and its defence is a free reaction that still costs stamina', () => {
    const run = (options: Record<string, boolean> = {}) => {
      const e = fight([still('brute', 'party')], [seed('hero', 'gm', { stamina: 0 }), seed('bodyguard', 'gm', { weaponName: 'Mace' })], options);
      pick(e, 'brute');
      e.apply(attack('brute', 'hero', [6, 6], 5));
      expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'intercept:bodyguard']);
      e.apply({ type: 'DEFEND', defence: 'intercept', interceptorId: 'bodyguard' });
      expect(e.view().prompt).toMatchObject({ subjectId: 'bodyguard' });
      expect(e.view().prompt!.choices.map((c) => c.id)).not.toContain('intercept:hero');
      e.apply({ type: 'DEFEND', defence: 'parry', slot: 'weapon' });
      return e;
    };
    const e = run();
    expect(who(e, 'bodyguard').stamina).toBe(2);
    expect(who(e, 'hero').endurance).toBe(12);
    expect([who(e, 'bodyguard').endurance, who(e, 'bodyguard').health]).toEqual([0, 12 - (12 + 4 - 1 - 12)]);
    expect(who(run({ freeReactionsPayResources: false }), 'bodyguard').stamina).toBe(3);
  });

  it('R-T16 and R-T17: stray shots pick among the others nearby with a roll; sneak and flanking give double advantage', () => {
    const e = fight([seed('archer', 'party', BOW), still('a1', 'party'), still('a2', 'party')], [still('foe', 'gm', { evasion: 30 })]);
    pick(e, 'archer');
    const shot = { attribute: 'dexterity', proficiency: 'none', nearbyIds: ['a1', 'a2', 'archer', 'foe'] } as const;
    const requests = teamsEncounter.rollsFor!(e.snapshot, attack('archer', 'foe', [], 1, shot));
    expect(requests.map((r) => r.notation)).toEqual(['1d6+1d6', '1d20', '1d2']);
    expect(() => e.apply(attack('archer', 'foe', [4, 4], 1, shot))).toThrow('The stray shot picks one of 2 nearby characters: roll 1d2.');
    e.apply(attack('archer', 'foe', [4, 4], 1, { ...shot, strayRoll: app(2) }));
    expect(who(e, 'a2').endurance).toBe(12 - 12);
    const sneaky = { attribute: 'dexterity', proficiency: 'none', sneak: true, flanking: true } as const;
    expect(teamsEncounter.rollsFor!(e.snapshot, attack('archer', 'foe', [], 5, sneaky))[0]).toMatchObject({ notation: '1d6+1d6+1d6+1d6+1d6+1d6', count: 6, label: 'Archer: attack test (d6 + d6, 3 sets with double advantage)' });
    const text = e.apply(attack('archer', 'foe', [1, 1, 6, 5, 2, 2], 5, sneaky))[0]!.text;
    expect(text).toContain('(sneak attack, flanking): d6 + d6 with double advantage [1, 1, 6, 5, 2, 2] → sets 2 / 11 / 4, keeps 11 − 2 (second attack this round) = 9');
  });

  it('a prone target gives melee advantage and ranged disadvantage; cover gives ranged disadvantage', () => {
    const e = fight([seed('archer', 'party', BOW), seed('brute', 'party')], [still('foe', 'gm', { evasion: 30 })]);
    pick(e, 'archer');
    e.apply({ type: 'OVERRIDE', targetId: 'foe', field: 'prone', value: 1, note: 'tripped' });
    const ranged = e.apply(attack('archer', 'foe', [6, 6, 1, 2], 5, { attribute: 'dexterity', proficiency: 'none' }))[0]!.text;
    expect(ranged).toContain('(prone target (ranged)): d6 + d6 with disadvantage [6, 6, 1, 2] → sets 12 / 3, keeps 3');
    const melee = teamsEncounter.rollsFor!(e.snapshot, attack('brute', 'foe', [], 5, { via: 'command' }))[0]!;
    expect(melee.label).toContain('with advantage');
  });
});

describe('health, consciousness and death (§2.4 steps 11–15, §2.5)', () => {
  const victim = (options: Record<string, string | number | boolean> = {}, sheet: Record<string, string | number | boolean> = {}) =>
    fight([seed('vic', 'party', sheet), seed('friend', 'party')], [seed('foe', 'gm')], options);

  it('R-T23 with no reaction or no stamina the consciousness check is lost at once', () => {
    const e = victim({}, { stamina: 0 });
    const lines = e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 18, source: 'a rockfall' });
    expect(lines[0]!.text).toContain('falls unconscious (R-T23)');
    expect(e.view().prompt?.kind).toBe('selectMember');
  });

  it('the consciousness check repeats whenever health is lost', () => {
    const e = victim();
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 17, source: 'a' });
    e.apply({ type: 'CONSCIOUSNESS', decision: 'fortify', testRoll: app(6, 4), luckRoll: app(1) });
    e.apply({ type: 'OVERRIDE', targetId: 'vic', field: 'reaction', value: 1, note: 'new turn' });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 1, source: 'b' });
    expect(e.view().prompt).toMatchObject({ kind: 'consciousness', text: expect.stringContaining('Fortify against 6 ') });
    e.apply({ type: 'CONSCIOUSNESS', decision: 'fortify', testRoll: app(1, 1), luckRoll: app(1) });
    expect(who(e, 'vic').conscious).toBe(false);
  });

  it('R-T24 zero health makes the character unconscious at once, with no consciousness check; exact damage is no death risk', () => {
    const e = victim();
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 12, source: 'a' });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 12, source: 'b' });
    expect(who(e, 'vic')).toMatchObject({ health: 0, conscious: false, dead: false });
    expect(e.view().prompt?.kind).toBe('selectMember');
  });

  it('R-T27 overkill compares the whole damage with the health left (option: only the spillover)', () => {
    const risk = (options: Record<string, string>) => {
      const e = victim(options, { endurance: 3, health: 5 });
      e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 8, source: 'a' });
      return e.view().prompt?.kind;
    };
    expect(risk({})).toBe('death');
    expect(risk({ overkillBasis: 'spilloverOnly' })).toBe('selectMember');
  });

  it('cheating death raises the difficulty by 5 for good, recorded at once and carried out', () => {
    const e = fight([seed('vic', 'party', {}, { characterId: 'char-1' }), seed('friend', 'party')], [seed('foe', 'gm')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 30, source: 'a' });
    const lines = e.apply({ type: 'LUCK_TEST', luckRoll: app(10) });
    expect(lines[0]!.text).toBe('Vic risks death: luck d20 [10] = 10 against 10: cheats death, unconscious at zero health. Cheat-death difficulty is now 15 for good.');
    expect(teamsEncounter.consequences!(e.snapshot).injuries).toEqual([
      { key: 'vic.cheatDeath1', characterId: 'char-1', name: 'Cheated death (difficulty 10 → 15)', category: 'cheatDeath', data: { kind: 'cheatDeath', before: 10, after: 15 } },
    ]);
    // Any more damage at zero health risks death again, now against 15.
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 1, source: 'b' });
    expect(e.view().prompt).toMatchObject({ kind: 'death', text: expect.stringContaining('against 15.') });
    e.apply({ type: 'LUCK_TEST', luckRoll: app(14) });
    expect(teamsEncounter.consequences!(e.snapshot).injuries.map((i) => i.key)).toEqual(['vic.cheatDeath1', 'vic.death']);
  });

  it('nonlethal overkill does not risk death at once; any more damage at zero health does', () => {
    const e = victim();
    const lines = e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 30, source: 'a sap', nonlethal: true });
    expect(lines[0]!.text).toContain('nonlethal source: no death risk yet');
    expect(tagsOf(e, 'vic')).toContain('nonlethal grace');
    expect(e.view().prompt?.kind).toBe('selectMember');
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 1, source: 'a sap', nonlethal: true });
    expect(e.view().prompt?.kind).toBe('death');
  });

  it('R-T3 knocked out on one\'s own turn: the turn ends at once, counts as taken, and the extended action is abandoned', () => {
    const e = victim();
    pick(e, 'vic');
    e.apply({ type: 'ACTION', kind: 'move' });
    e.apply({ type: 'ACTION', kind: 'other', name: 'Reload', cost: 3 });
    const lines = e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 18, source: 'a trap' });
    expect(e.view().prompt?.kind).toBe('consciousness');
    const after = e.apply({ type: 'CONSCIOUSNESS', decision: 'unconscious' });
    expect(texts([...lines, ...after])).toEqual(expect.arrayContaining(["Vic's turn ends at once and counts as taken.", 'Vic loses consciousness: Reload is abandoned.']));
    expect(who(e, 'vic')).toMatchObject({ acted: true, inProgress: null });
    expect(teamPicking(e)).toBe('gm');
  });

  it('R-T13 Resuscitate suggests the target\'s missing health as the difficulty (option: the GM sets it)', () => {
    const down = (options: Record<string, string> = {}) => {
      const e = fight([seed('medic', 'party'), seed('vic', 'party', { health: 9, unconscious: true })], [seed('foe', 'gm')], options);
      pick(e, 'medic');
      return e;
    };
    const e = down();
    expect(() => e.apply({ type: 'ACTION', kind: 'resuscitate', targetId: 'vic' })).toThrow('Say which dice the Resuscitate test rolls.');
    e.apply({ type: 'ACTION', kind: 'resuscitate', targetId: 'vic', dice: [6], testRoll: app(3), luckRoll: app(2) });
    expect(who(e, 'vic').conscious).toBe(true);
    const gm = down({ resuscitateDifficulty: 'gmSets' });
    expect(() => gm.apply({ type: 'ACTION', kind: 'resuscitate', targetId: 'vic', dice: [6], testRoll: app(3), luckRoll: app(2) })).toThrow('Set the Resuscitate difficulty (R-T13).');
    gm.apply({ type: 'ACTION', kind: 'resuscitate', targetId: 'vic', difficulty: 4, dice: [6], testRoll: app(3), luckRoll: app(2) });
    expect(who(gm, 'vic').conscious).toBe(false);
  });

  it('the killing strike: three actions, a test with advantage against constitution; success kills, failure is a sneak attack', () => {
    const strike = (options: Record<string, string> = {}, victimSheet: Record<string, string | number | boolean> = {}) => {
      const e = fight([seed('killer', 'party', { ...SPEAR, martial: 1 })], [seed('vic', 'gm', { unconscious: true, health: 5, constitution: 4, ...victimSheet })], options);
      pick(e, 'killer');
      return e;
    };
    const e = strike();
    expect(teamsEncounter.rollsFor!(e.snapshot, { type: 'KILLING_STRIKE', targetId: 'vic', attribute: 'strength', proficiency: 'martial' }).map((r) => r.notation)).toEqual(['1d6+1d6+1d6+1d6', '1d20']);
    const kill = e.apply({ type: 'KILLING_STRIKE', targetId: 'vic', attribute: 'strength', proficiency: 'martial', testRoll: app(1, 1, 2, 1), luckRoll: app(5) })[0]!;
    expect(kill.text).toBe('Killer makes a killing strike on Vic with Spear: d6 + d6 with advantage [1, 1, 2, 1] → sets 2 / 3, keeps 3 + 1 = 4 against constitution 4: Vic dies.');
    expect(who(e, 'vic').dead).toBe(true);
    expect(who(e, 'killer').attacksThisRound).toBe(1);
    const fails = strike({}, { constitution: 20, evasion: 3, endurance: 0 });
    const text = fails.apply({ type: 'KILLING_STRIKE', targetId: 'vic', attribute: 'strength', proficiency: 'martial', testRoll: app(1, 1, 2, 1), luckRoll: app(5) })[0]!.text;
    expect(text).toContain('against constitution 20: it fails, so a sneak attack is made instead: 4 against evasion 3, hit for 8 − 0 = 8');
    expect(fails.view().prompt?.kind).toBe('death'); // damage at zero health risks death
    const conscious = fight([seed('killer', 'party')], [seed('vic', 'gm')]);
    pick(conscious, 'killer');
    expect(() => conscious.apply({ type: 'KILLING_STRIKE', targetId: 'vic', attribute: 'strength', proficiency: 'martial' })).toThrow('Vic is conscious: a killing strike needs an unconscious target.');
  });

  it('R-T25 killing strikes with any weapon by default; lethal-only and nonlethal-only are options', () => {
    const club = { weaponName: 'Sap', weaponNonlethal: true };
    const e = fight([seed('killer', 'party', club)], [seed('vic', 'gm', { unconscious: true, health: 5 })], { killingStrikeWeapons: 'lethalOnly' });
    pick(e, 'killer');
    expect(() => e.apply({ type: 'KILLING_STRIKE', targetId: 'vic', attribute: 'strength', proficiency: 'martial' })).toThrow('This campaign allows killing strikes with lethal weapons only (R-T25): Sap is nonlethal.');
    const literal = fight([seed('killer', 'party')], [seed('vic', 'gm', { unconscious: true, health: 5 })], { killingStrikeWeapons: 'nonlethalOnly' });
    pick(literal, 'killer');
    expect(() => literal.apply({ type: 'KILLING_STRIKE', targetId: 'vic', attribute: 'strength', proficiency: 'martial' })).toThrow('R-T25');
  });

  it('R-T15b the literal killing-strike test rolls the combat skill only, and a failed one rolls its own sneak attack', () => {
    const e = fight([seed('killer', 'party')], [seed('vic', 'gm', { unconscious: true, health: 5, constitution: 20 })], { killingStrikeTest: 'combatSkillOnly' });
    pick(e, 'killer');
    expect(teamsEncounter.rollsFor!(e.snapshot, { type: 'KILLING_STRIKE', targetId: 'vic', attribute: 'strength', proficiency: 'martial' }).map((r) => r.notation)).toEqual(['1d6+1d6', '1d20', '1d6+1d6+1d6+1d6']);
  });

  it('a killing strike with fewer than 3 actions left finishes on the next turn (R-T10)', () => {
    const e = fight([seed('killer', 'party')], [seed('vic', 'gm', { unconscious: true, health: 5 }), seed('foe', 'gm')]);
    pick(e, 'killer');
    e.apply({ type: 'ACTION', kind: 'move' });
    e.apply({ type: 'KILLING_STRIKE', targetId: 'vic', attribute: 'strength', proficiency: 'martial' });
    expect(who(e, 'killer').inProgress).toMatchObject({ kind: 'killingStrike', paid: 2 });
    e.apply({ type: 'END_TURN' });
    turns(e, ['foe']);
    pick(e, 'killer');
    e.apply({ type: 'EXTENDED', decision: 'continue', testRoll: app(6, 6, 6, 6), luckRoll: app(3) });
    expect(who(e, 'vic').dead).toBe(true);
    expect(e.view().turn!.actionsLeft).toBe(2);
  });
});

describe('what the fight leaves behind (§2.6, R-T26)', () => {
  const ended = (options: Record<string, string> = {}) => {
    const e = fight(
      [seed('hero', 'party', { shieldName: 'Shield', shieldBlock: 2 }, { characterId: 'char-hero', carried: { health: 9, cheatDeathDifficulty: 15, items: { shield: { durability: 3 } } } })],
      [seed('foe', 'gm', {}, { characterId: 'template-foe' })],
      options,
    );
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 13, source: 'a' });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'foe', amount: 13, source: 'b' });
    e.apply({ type: 'END_COMBAT', outcome: 'The guards flee' });
    return e;
  };

  it('carries the pools, the cheat-death difficulty and item durability of party members only (R-T26 keep)', () => {
    const e = ended();
    const result = teamsEncounter.consequences!(e.snapshot);
    expect(result.carry).toEqual([{ characterId: 'char-hero', state: { endurance: 0, health: 8, stamina: 4, focus: 4, unconscious: false, cheatDeathDifficulty: 15, items: { weapon: { durability: 10 }, shield: { durability: 3 } } } }]);
    expect(result.party).toEqual({});
    expect(e.view().outcome).toBe('The guards flee');
  });

  it('R-T26 "reset" returns the pools to their maximum', () => {
    const state = teamsEncounter.consequences!(ended({ poolsAfterCombat: 'reset' }).snapshot).carry![0]!.state;
    expect(state).toMatchObject({ endurance: 12, health: 12, stamina: 4, focus: 4, unconscious: false });
  });

  it('carriedIn brings the stored condition back, with the highest recorded cheat-death difficulty', () => {
    const carried = teamsEncounter.carriedIn!(
      { endurance: 0, health: 8, stamina: 2, focus: 4, unconscious: false, cheatDeathDifficulty: 15, items: { shield: { durability: 3 } }, notes: 'x' },
      [{ kind: 'cheatDeath', before: 15, after: 20 }],
    );
    expect(carried).toEqual({ endurance: 0, health: 8, stamina: 2, focus: 4, unconscious: false, cheatDeathDifficulty: 20, items: { shield: { durability: 3 } } });
    const e = fight([seed('hero', 'party', {}, { carried })], [seed('foe', 'gm')]);
    expect(who(e, 'hero')).toMatchObject({ health: 8, endurance: 0, stamina: 2, cheatDeathDifficulty: 20 });
  });

  it('no carry before the end', () => {
    const e = fight([seed('hero', 'party', {}, { characterId: 'c' })], [seed('foe', 'gm')]);
    expect(teamsEncounter.consequences!(e.snapshot)).toEqual({ injuries: [], carry: null, party: null });
  });
});

describe('healing (no healing rules in the chapter: the GM says how much, the maxima are the limit)', () => {
  it('HEAL restores endurance or health up to its maximum, logs both pools, and refuses a full pool or the dead', () => {
    const e = fight([seed('hero', 'party')], [seed('foe', 'gm')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 15, source: 'a trap' });
    const lines = e.apply({ type: 'HEAL', targetId: 'hero', pool: 'endurance', amount: 4, source: 'a draught' });
    expect(lines[0]!.text).toBe('Hero heals 4 endurance from a draught: endurance 0 → 4, endurance 4/12, health 9/12 (harmed, bloodied).');
    const capped = e.apply({ type: 'HEAL', targetId: 'hero', pool: 'health', amount: 10, source: 'a prayer' });
    expect(capped[0]!.text).toBe('Hero heals 10 health from a prayer: health 9 → 12 (capped at the maximum 12), endurance 4/12, health 12/12 (harmed).');
    expect(() => e.apply({ type: 'HEAL', targetId: 'hero', pool: 'health', amount: 1, source: '' })).toThrow("Hero's health is already full (12/12).");
    e.apply({ type: 'OVERRIDE', targetId: 'foe', field: 'dead', value: 1, note: 'slain' });
    expect(() => e.apply({ type: 'HEAL', targetId: 'foe', pool: 'health', amount: 1, source: '' })).toThrow('Foe is dead: healing cannot bring them back.');
    expect(() => parseEvent(teamsEncounter, { type: 'HEAL', targetId: 'hero', pool: 'focus', amount: 1, source: '' })).toThrow('Healing restores endurance or health.');
  });

  it('healing does not wake the unconscious (Resuscitate does) and ends the nonlethal grace; it waits behind a blocking decision', () => {
    const e = fight([seed('hero', 'party'), seed('friend', 'party')], [seed('foe', 'gm')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 30, source: 'a cudgel', nonlethal: true });
    expect(who(e, 'hero')).toMatchObject({ health: 0, conscious: false, nonlethalZeroed: true });
    const lines = e.apply({ type: 'HEAL', targetId: 'hero', pool: 'health', amount: 2, source: 'bandages' });
    expect(lines[0]!.text).toContain('health 0 → 2');
    expect(lines[0]!.text).toContain('still unconscious: Resuscitate wakes them.');
    expect(who(e, 'hero')).toMatchObject({ health: 2, conscious: false, nonlethalZeroed: false });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'friend', amount: 18, source: 'a boulder' });
    expect(() => e.apply({ type: 'HEAL', targetId: 'hero', pool: 'health', amount: 1, source: '' })).toThrow('Friend must Fortify or fall unconscious first.');
  });
});

describe('who is where: stray shots and Intercept (§2.4 step 3, §2.3 Intercept)', () => {
  const guarded = (extra: Partial<GmEvent> = {}) => {
    const e = fight([still('brute', 'party')], [seed('hero', 'gm', { stamina: 0 }), seed('near', 'gm'), seed('far', 'gm')]);
    pick(e, 'brute');
    e.apply(attack('brute', 'hero', [6, 6], 5, extra));
    return e;
  };

  it('with nobody named every ally of the target may intercept; naming the adjacent ones offers only them', () => {
    expect(guarded().view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'intercept:near', 'intercept:far']);
    expect(guarded({ interceptorIds: [] }).view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'intercept:near', 'intercept:far']);
    const e = guarded({ interceptorIds: ['near'] });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'intercept:near']);
    expect(() => e.apply({ type: 'DEFEND', defence: 'intercept', interceptorId: 'far' })).toThrow('Far is not close enough to intercept: the attack named who can.');
    e.apply({ type: 'DEFEND', defence: 'intercept', interceptorId: 'near' });
    expect(e.view().prompt).toMatchObject({ subjectId: 'near' });
  });

  it('refuses interceptors who are not the target\'s allies, with a reason', () => {
    const e = fight([still('brute', 'party'), seed('mate', 'party')], [seed('hero', 'gm')]);
    pick(e, 'brute');
    expect(() => e.apply(attack('brute', 'hero', [6, 6], 5, { interceptorIds: ['mate'] }))).toThrow("Mate is not on Hero's team and cannot intercept for them.");
    expect(() => e.apply(attack('brute', 'hero', [6, 6], 5, { interceptorIds: ['brute'] }))).toThrow('Brute is the attacker and cannot intercept.');
  });
});

describe('Command, Brandish and what is held (§2.3, §2.4 Block and Parry)', () => {
  it('a commanded Move is the ally\'s Move this turn: shown, logged, and a Sprint after it still needs another action', () => {
    const e = fight([seed('hero', 'party'), seed('ally', 'party')], [seed('foe', 'gm')]);
    pick(e, 'hero');
    e.apply({ type: 'ACTION', kind: 'command', targetId: 'ally' });
    expect(tagsOf(e, 'ally')).toContain('commanded: 1 action');
    expect(() => e.apply({ type: 'ACTION', kind: 'sprint', actorId: 'ally' })).toThrow('Ally has not moved this turn: Sprint needs a Move first, and a Command gives one action.');
    const lines = e.apply({ type: 'ACTION', kind: 'move', actorId: 'ally' });
    expect(lines[0]!.text).toBe("Ally on Hero's Command: Move (their Move this turn). 2 actions left.");
    expect(ctx(e).turn!.alliesMoved).toEqual(['ally']);
    expect(tagsOf(e, 'ally')).toContain('moved');
    expect(tagsOf(e, 'ally')).not.toContain('commanded: 1 action');
    // The commander's own Move is still free to take, and the ally's ends with the turn.
    e.apply({ type: 'ACTION', kind: 'move' });
    e.apply({ type: 'END_TURN' });
    expect(tagsOf(e, 'ally')).not.toContain('moved');
  });

  it('Brandish chooses what is held: only a wielded item blocks or parries, and an attack needs its weapon in hand', () => {
    const e = fight([still('brute', 'party')], [seed('hero', 'gm', { weaponName: 'Sword', shieldName: 'Shield', shieldBlock: 3 }), seed('friend', 'gm')]);
    turns(e, ['brute']);
    pick(e, 'hero');
    const lines = e.apply({ type: 'ACTION', kind: 'brandish', hold: 'weapon' });
    expect(lines[0]!.text).toBe('Hero brandishes: now holding Sword. 2 actions left.');
    expect(e.view().order.find((c) => c.id === 'hero')!.stats).toContainEqual({ label: 'Holding', value: 'Sword' });
    e.apply({ type: 'FREE_ACTION', kind: 'dropItem', item: 'weapon' });
    expect(() => e.apply(attack('hero', 'brute', [6, 6], 5))).toThrow('Hero is not holding Sword: Brandish it first, or name the weapon used.');
    expect(() => e.apply({ type: 'FREE_ACTION', kind: 'dropItem', item: 'weapon' })).toThrow('Hero is not holding Sword.');
    e.apply({ type: 'END_TURN' });
    turns(e, ['friend']);
    // Round 2: the brute hits the empty-handed hero, who can only dodge.
    pick(e, 'brute');
    e.apply(attack('brute', 'hero', [6, 6], 5));
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'dodge', 'intercept:friend']);
    expect(() => e.apply({ type: 'DEFEND', defence: 'block' })).toThrow('Hero is not holding Shield: only a wielded item can block.');
    expect(() => e.apply({ type: 'DEFEND', defence: 'parry', slot: 'weapon' })).toThrow('Hero is not holding Sword: only a wielded item can parry.');
    const noShield = fight([seed('hero', 'party'), seed('ally', 'party')], [seed('foe', 'gm')]);
    pick(noShield, 'hero');
    expect(() => noShield.apply({ type: 'ACTION', kind: 'brandish', hold: 'weaponAndShield' })).toThrow('Hero has no shield to hold.');
    noShield.apply({ type: 'ACTION', kind: 'command', targetId: 'ally' });
    noShield.apply({ type: 'ACTION', kind: 'brandish', actorId: 'ally', hold: 'nothing' });
    expect(who(noShield, 'ally').held).toEqual({ weapon: false, shield: false });
    // Without a hold it is about items the app does not track: the hands stay as they were.
    expect(noShield.apply({ type: 'ACTION', kind: 'brandish', note: 'a torch' })[0]!.text).toBe('Hero brandishes (weapon and shield stay as they were) (a torch). 1 action left.');
    expect(who(noShield, 'hero').held).toEqual({ weapon: true, shield: false });
  });
});

describe('R-T19 when a parry is chosen', () => {
  const duel = (options: Record<string, string | boolean> = {}, extra: Partial<GmEvent> = {}, test: number[] = [6, 6]) => {
    const e = fight([still('brute', 'party', { weaponName: 'Axe', weaponDamage: 4, weaponDamageType: 'slashing' })], [seed('hero', 'gm', { weaponName: 'Sword', physicalDeflection: 2 })], options);
    pick(e, 'brute');
    const lines = e.apply(attack('brute', 'hero', test, 5, extra));
    return { e, lines };
  };

  it('default: a parry is offered after the hit is known, and cannot be declared with the attack', () => {
    expect(duel().e.view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'parry:weapon', 'dodge']);
    expect(() => duel({}, { declaredParry: 'weapon' })).toThrow('In this campaign a parry is chosen after the hit is known (R-T19): leave the declared parry empty and answer the defence prompt.');
  });

  it('off: the parry is declared with the attack, paid even on a miss, and the hit window offers none', () => {
    expect(duel({ parryAfterHit: false }).e.view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'dodge']);
    const hit = duel({ parryAfterHit: false }, { declaredParry: 'weapon' });
    // 12 + 4 = 16 slashing − (deflection 2 + parry 1) = 13
    expect(hit.lines[0]!.text).toContain('Hero parries before the roll with Sword (1 stamina, the reaction, R-T19).');
    expect(hit.lines[0]!.text).toContain('Damage 12 + 4 = 16 slashing − deflection 3 = 13');
    expect(hit.lines[0]!.rulings).toEqual(expect.arrayContaining(['R-T19', 'R-T21']));
    expect(who(hit.e, 'hero')).toMatchObject({ stamina: 3, endurance: 0, health: 11, reactionSpent: true });
    expect(who(hit.e, 'hero').items.weapon.durability).toBe(9);
    const miss = duel({ parryAfterHit: false }, { declaredParry: 'weapon' }, [1, 1]);
    expect(miss.lines[0]!.text).toContain(': miss.');
    expect(who(miss.e, 'hero')).toMatchObject({ stamina: 3, endurance: 12, reactionSpent: true });
    expect(who(miss.e, 'hero').items.weapon.durability).toBe(9);
  });
});

describe('the end of combat (R-T11)', () => {
  it('when one team is left the runner shows a notice, not a prompt, and the log says it once', () => {
    const e = fight([seed('hero', 'party')], [seed('g1', 'gm'), seed('g2', 'gm')]);
    e.apply({ type: 'SET_OBJECTIVE', team: 'gm', text: 'hold the gate' });
    expect(e.view().aside).toEqual([{ title: 'Objectives (R-T11)', text: 'Enemies: hold the gate' }]);
    e.apply({ type: 'OVERRIDE', targetId: 'g1', field: 'dead', value: 1, note: 'slain' });
    const lines = e.apply({ type: 'OVERRIDE', targetId: 'g2', field: 'conscious', value: 0, note: 'knocked out' });
    expect(lines.map((l) => l.text)).toContain('Only Party is left standing: the GM may end combat.');
    expect(e.view().aside![0]).toEqual({ title: 'End of combat (R-T11)', text: 'Only Party is left standing: end combat?' });
    expect(e.view().prompt).toMatchObject({ kind: 'selectMember' });
    pick(e, 'hero');
    expect(texts(e.apply({ type: 'END_TURN' }))).not.toContain('Only Party is left standing: the GM may end combat.');
    e.apply({ type: 'END_COMBAT', outcome: 'The gate is ours' });
    expect(e.view().aside).toBeUndefined();
  });

  it('a party member who died carries dead: true onto the character', () => {
    const e = fight([seed('vic', 'party', {}, { characterId: 'char-vic' })], [seed('foe', 'gm')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 30, source: 'a fall' });
    e.apply({ type: 'LUCK_TEST', luckRoll: app(2) });
    e.apply({ type: 'END_COMBAT', outcome: 'A grim day' });
    const result = teamsEncounter.consequences!(e.snapshot);
    expect(result.injuries.map((i) => i.category)).toEqual(['death']);
    expect(result.carry![0]).toMatchObject({ characterId: 'char-vic', state: { dead: true, health: 0, unconscious: true } });
  });
});

export { ctx, playRound };
