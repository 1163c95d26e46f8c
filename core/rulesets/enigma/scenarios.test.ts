// Enigma's worked examples (RULES.md §1.7) by their IDs, and the turn, attack, peril and injury rules of §1.3–§1.6.
import { describe, expect, it } from 'vitest';
import { EncounterEngine } from '../../encounter/kernel.ts';
import type { CombatantSeed, GmEvent } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { enigmaEncounter, perilDetailsOf } from './encounter.ts';
import { rowDetails } from './testing.ts';
import { enigmaOptions } from './options.ts';
import type { EnigmaContext } from './rules.ts';

type Dice = Partial<Record<'endure' | 'navigate' | 'glean' | 'attack' | 'influence' | 'manifest', number>> & { namedNpc?: boolean; armoured?: boolean };
const seed = (id: string, side: 'party' | 'gm', dice: Dice = {}, extra: Record<string, unknown> = {}): CombatantSeed => ({
  id, name: id[0]!.toUpperCase() + id.slice(1), side, characterId: null,
  sheet: { endure: 8, navigate: 8, glean: 8, attack: 8, influence: 8, manifest: 8, namedNpc: false, armoured: false, notes: '', ...dice },
  ...extra,
});
const app = (...faces: number[]) => ({ faces, source: 'app' as const });

/** A fight already running: the party member `hero` acts first against the goblin (and any others). */
function fight(options: Record<string, string | number | boolean> = {}, seeds: CombatantSeed[] = [], carried: number | null = null) {
  const e = EncounterEngine.create(enigmaEncounter, { options: { ...defaultOptions(enigmaOptions), ...options }, carried: { escalation: carried } });
  e.apply({ type: 'ADD_COMBATANTS', combatants: seeds.length ? seeds : [seed('hero', 'party', { endure: 10, navigate: 10 }), seed('goblin', 'gm', { endure: 6 })] });
  e.apply({ type: 'SET_GM_ORDER', ids: (e.snapshot.context as EnigmaContext).roster.filter((id) => (e.snapshot.context as EnigmaContext).combatants[id]!.side === 'gm') });
  e.apply({ type: 'START' });
  return e;
}
const ctx = (e: EncounterEngine) => e.snapshot.context as EnigmaContext;
const who = (e: EncounterEngine, id: string) => ctx(e).combatants[id]!;
const melee = (attackerId: string, targetId: string, attack: number, defence: number, extra: Partial<GmEvent> = {}): GmEvent => ({
  type: 'ATTACK', attackerId, targetId, mode: 'melee', sight: 'clear', damage: 'full', attackRoll: app(attack), defenceRoll: app(defence), ...extra,
});
const endTurnsUntil = (e: EncounterEngine, id: string) => {
  for (let i = 0; i < 20 && e.view().activeId !== id; i += 1) e.apply({ type: 'END_TURN' });
  expect(e.view().activeId).toBe(id);
};

describe('turn resources (§1.3)', () => {
  it('ENIGMA-06 normal movement: Navigate d10, MOVE 7 then ATTACK leaves no actions', () => {
    const e = fight();
    e.apply({ type: 'MOVE', spaces: 7, pauses: 0 });
    e.apply(melee('hero', 'goblin', 1, 6));
    expect(e.view().turn).toEqual({ actionsLeft: 0, actionsPerTurn: 2 });
    expect(() => e.apply({ type: 'MOVE', spaces: 1, pauses: 0 })).toThrow('Hero has no actions left this turn.');
  });

  it('ENIGMA-07 broken-up movement: 9 spaces + 1 pause fits a speed of 10, 9 + 2 pauses does not (R-E11)', () => {
    const e = fight();
    expect(() => e.apply({ type: 'MOVE', spaces: 9, pauses: 2 })).toThrow('Hero can cover 10 spaces in one Move; 9 spaces and 2 pauses need 11 (R-E11).');
    e.apply({ type: 'MOVE', spaces: 9, pauses: 1, note: 'locks the door' });
    expect(e.view().turn!.actionsLeft).toBe(1);
    e.apply(melee('hero', 'goblin', 1, 6));
  });

  it('ENIGMA-08 daring movement: a Navigate check of 7 against a GM-set difficulty, free of actions', () => {
    const e = fight();
    const lines = e.apply({ type: 'CHECK', actorId: 'hero', capacity: 'navigate', difficulty: 7, cost: 0, description: 'swings across the chasm', roll: app(7) });
    expect(lines[0]!.text).toContain('against difficulty 7: success');
    expect(e.view().turn!.actionsLeft).toBe(2);
  });

  it('ENIGMA-15 improvised action: difficulty 8, 1 action, Attack 9 succeeds (R-E18 meet-or-beat)', () => {
    const strong = [seed('hero', 'party', { attack: 10 }), seed('goblin', 'gm')];
    const e = fight({}, strong);
    const lines = e.apply({ type: 'CHECK', actorId: 'hero', capacity: 'attack', difficulty: 8, cost: 1, description: 'topples the statue', roll: app(9) });
    expect(lines[0]!.text).toMatch(/9 against difficulty 8: success \(1 action\)/);
    expect(e.view().turn!.actionsLeft).toBe(1);
    expect(e.apply({ type: 'CHECK', actorId: 'hero', capacity: 'attack', difficulty: 8, cost: 0, description: '', roll: app(8) })[0]!.text).toContain('success');
    const strict = fight({ fixedDifficulty: 'beat' }, strong);
    expect(strict.apply({ type: 'CHECK', actorId: 'hero', capacity: 'attack', difficulty: 8, cost: 0, description: '', roll: app(8) })[0]!.text).toContain('failure');
  });

  it('a power costs its actions; a full action costs fullActionCost (R-E7)', () => {
    const e = fight({ fullActionCost: 2 });
    expect(() => e.apply({ type: 'USE_POWER', power: 'Firestorm', cost: 1, fullAction: true })).not.toThrow();
    expect(e.view().turn!.actionsLeft).toBe(0);
  });

  it('a reaction costs one action of the reactor\'s next turn, at most two owed (R-E6)', () => {
    const e = fight();
    e.apply({ type: 'USE_REACTION', reactorId: 'goblin', power: 'Snap' });
    e.apply({ type: 'USE_REACTION', reactorId: 'goblin', power: 'Snap' });
    expect(() => e.apply({ type: 'USE_REACTION', reactorId: 'goblin', power: 'Snap' })).toThrow('Goblin already owes 2 actions to reactions (R-E6: at most 2).');
    expect(() => e.apply({ type: 'USE_REACTION', reactorId: 'hero', power: 'Parry' })).toThrow('Hero is acting now');
    e.apply({ type: 'END_TURN' });
    // The goblin's turn has no actions: it passes at once and the round turns over to the hero.
    expect(e.view().round).toBe(2);
    expect(e.view().activeId).toBe('hero');
    expect(who(e, 'goblin').reactionDebt).toBe(0);
  });

  it('a single reaction leaves one action on the next turn, even later in the same round', () => {
    const e = fight();
    e.apply(melee('hero', 'goblin', 1, 6, {}));
    e.apply(melee('goblin', 'hero', 8, 1, { asReaction: true }));
    e.apply({ type: 'END_TURN' });
    expect([e.view().activeId, e.view().turn!.actionsLeft]).toEqual(['goblin', 1]);
  });

  it('skips a creature that cannot act, keeping its slot (R-E5)', () => {
    const e = fight({}, [seed('hero', 'party'), seed('goblin', 'gm'), seed('orc', 'gm')]);
    e.apply({ type: 'SET_CAN_ACT', combatantId: 'goblin', canAct: false, note: 'stunned' });
    const lines = e.apply({ type: 'END_TURN' });
    expect(e.view().activeId).toBe('orc');
    expect(lines.map((l) => l.text)).toContain('Goblin cannot act: turn skipped.');
    expect(e.view().order.map((c) => c.name)).toEqual(['Hero', 'Goblin', 'Orc']);
  });
});

describe('attacks (§1.4)', () => {
  it('ENIGMA-09 basic attack: 6 against Endure 4 hits for 1 at Escalation 1; 5 against 5 misses (R-E14)', () => {
    const e = fight();
    e.apply(melee('hero', 'goblin', 5, 4));
    expect(who(e, 'goblin').lp).toBe(5);
    const tie = fight();
    const lines = tie.apply(melee('hero', 'goblin', 4, 5));
    expect(who(tie, 'goblin').lp).toBe(6);
    expect(lines[0]!.text).toContain('a tie goes to the defender: miss');
    const attackerWins = fight({ opposedTies: 'attacker' });
    attackerWins.apply(melee('hero', 'goblin', 4, 5));
    expect(who(attackerWins, 'goblin').lp).toBe(5);
  });

  it('ENIGMA-10 Escalation damage: 3 at Escalation 3; half-Escalation 1 at E3 and 1 at E1 (R-E15)', () => {
    const e = fight({}, [], 3);
    e.apply(melee('hero', 'goblin', 8, 1));
    expect(who(e, 'goblin').lp).toBe(3);
    const half = fight({}, [], 3);
    half.apply(melee('hero', 'goblin', 8, 1, { damage: 'half' }));
    expect(who(half, 'goblin').lp).toBe(5);
    const low = fight();
    low.apply(melee('hero', 'goblin', 8, 1, { damage: 'half' }));
    expect(who(low, 'goblin').lp).toBe(5);
  });

  it('defends ranged attacks with Navigate and bands them by the Glean die (R-E12)', () => {
    const e = fight();
    const ranged = (distance: number, attack: number[], defence: number) =>
      ({ type: 'ATTACK', attackerId: 'hero', targetId: 'goblin', mode: 'ranged', distance, sight: 'clear', damage: 'full', attackRoll: app(...attack), defenceRoll: app(defence) }) as GmEvent;
    expect(() => e.apply(ranged(1, [5], 1))).toThrow('Ranged attacks cannot target an adjacent creature (R-E12).');
    expect(() => e.apply(ranged(12, [5], 1))).toThrow("Hero's Attack roll needs 2 d8 (1 disadvantage): 1 given.");
    const far = e.apply(ranged(12, [8, 2], 1));
    expect(far[0]!.text).toContain('Attack d8 with 1 disadvantage [8, 2] → 2 + Escalation 1 = 3');
    expect(far[0]!.text).toContain('Navigate d8');
    const beyond = e.apply({ type: 'ATTACK', attackerId: 'hero', targetId: 'goblin', mode: 'ranged', distance: 17, sight: 'clear', damage: 'full' });
    expect(beyond[0]!.text).toContain('automatic miss');
  });

  it('stacks disadvantage for an unseen target and refuses a target behind full cover (§1.4 step 1)', () => {
    const e = fight();
    expect(() => e.apply(melee('hero', 'goblin', 5, 1, { sight: 'fullCover' }))).toThrow('Goblin is completely behind cover and cannot be targeted.');
    expect(() => e.apply(melee('hero', 'goblin', 5, 1, { sight: 'unseen' }))).toThrow('needs 2 d8 (1 disadvantage)');
    e.apply(melee('hero', 'goblin', 5, 1, { sight: 'unseen', attackRoll: app(5, 7) }));
    expect(who(e, 'goblin').lp).toBe(5);
  });

  it('defeats an NPC at 0 LP and removes it from the order (R-E8)', () => {
    const e = fight({}, [seed('hero', 'party'), seed('goblin', 'gm', { endure: 4 }), seed('orc', 'gm')], 4);
    e.apply(melee('hero', 'goblin', 8, 1));
    expect(who(e, 'goblin').removed).toMatchObject({ kind: 'defeated' });
    expect(e.view().order.filter((c) => c.slot !== null).map((c) => c.name)).toEqual(['Hero']);
  });

  it('a named NPC faces Mortal Peril instead of being defeated (R-E8)', () => {
    const e = fight({}, [seed('hero', 'party'), seed('boss', 'gm', { endure: 4, namedNpc: true })], 4);
    e.apply(melee('hero', 'boss', 8, 1));
    expect(e.view().prompt?.kind).toBe('mortalPeril');
  });
});

describe('Hide and Notice per observer (§1.4 step 9)', () => {
  const three = () => fight({}, [seed('hero', 'party'), seed('goblin', 'gm'), seed('orc', 'gm')]);

  it('hides from the foes the hider beats and not from the others; ties are not hidden (R-E14)', () => {
    const e = three();
    e.apply({ type: 'HIDE', navigateRoll: app(5), observers: [{ observerId: 'goblin', gleanRoll: app(4) }, { observerId: 'orc', gleanRoll: app(5) }] });
    expect(who(e, 'hero').hiddenFrom).toEqual(['goblin']);
    expect(e.view().order.find((c) => c.id === 'hero')!.tags).toContain('hidden from Goblin');
  });

  it('a foe that has not noticed the hider cannot target it; Notice finds it', () => {
    const e = three();
    e.apply({ type: 'HIDE', navigateRoll: app(8), observers: [{ observerId: 'goblin', gleanRoll: app(1) }, { observerId: 'orc', gleanRoll: app(1) }] });
    e.apply({ type: 'END_TURN' });
    expect(() => e.apply(melee('goblin', 'hero', 5, 1))).toThrow('Goblin has not noticed the hidden Hero and cannot target it.');
    e.apply({ type: 'NOTICE', targetId: 'hero', gleanRoll: app(6), navigateRoll: app(5) });
    expect(who(e, 'hero').hiddenFrom).toEqual(['orc']);
    e.apply(melee('goblin', 'hero', 8, 1));
  });

  it('attacking reveals the attacker (R-E17)', () => {
    const e = three();
    e.apply({ type: 'HIDE', navigateRoll: app(8), observers: [{ observerId: 'goblin', gleanRoll: app(1) }] });
    e.apply(melee('hero', 'goblin', 1, 8));
    expect(who(e, 'hero').hiddenFrom).toEqual([]);
  });
});

describe('Mortal Peril and injuries (§1.5, §1.6)', () => {
  const perilFight = (options: Record<string, string | number | boolean> = {}) => {
    const e = fight(options, [seed('hero', 'party', { endure: 10, navigate: 8 }), seed('ally', 'party'), seed('goblin', 'gm')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 12, source: 'cave-in' });
    return e;
  };

  it('ENIGMA-16 LP from Endure d10, floor 0, and END_TURN refused until the peril is resolved', () => {
    const e = perilFight();
    expect(who(e, 'hero').lp).toBe(0);
    expect(e.view().prompt).toMatchObject({ kind: 'mortalPeril', subjectId: 'hero', answer: 'RESOLVE_PERIL' });
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('Hero is in Mortal Peril: choose Sacrifice or Survive first.');
    expect(() => e.apply({ type: 'MOVE', spaces: 1, pauses: 0 })).toThrow('Mortal Peril');
    expect(e.view().allowed).toEqual(['RESOLVE_PERIL', 'OVERRIDE']);
  });

  it('ENIGMA-17 Sacrifice: the PC dies, leaves the order with sliding, and the legacy is logged', () => {
    const e = perilFight();
    const lines = e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'sacrifice', costText: 'cave-in seals tunnel' });
    expect(lines[0]!.text).toBe('Mortal Peril: Hero chooses Sacrifice and dies. Legacy: cave-in seals tunnel.');
    expect(who(e, 'hero').removed).toMatchObject({ kind: 'dead' });
    expect(e.view().activeId).toBe('goblin');
    expect(ctx(e).order).toEqual(['goblin']);
  });

  it('ENIGMA-18 Survive with a permanent cost: LP 5, one Survive, no healing magic but Fixes', () => {
    const e = perilFight();
    e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: 'curse mark', healingRestriction: 'fixesOnly' });
    expect([who(e, 'hero').lp, who(e, 'hero').survivals]).toEqual([5, 1]);
    expect(() => e.apply({ type: 'HEAL', targetId: 'hero', amount: 2, kind: 'magic', source: 'Mend' })).toThrow('Hero can receive no healing magic except Fixes');
    e.apply({ type: 'HEAL', targetId: 'hero', amount: 2, kind: 'fix', source: 'Fix' });
    expect(who(e, 'hero').lp).toBe(7);
  });

  it('ENIGMA-19 a second Survive extends the same injury: 3 → 3 × 2 = 6 rests, no second record', () => {
    const e = perilFight();
    e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: 'limps', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 3 } });
    expect(who(e, 'hero').injuries.map((i) => [i.name, i.restsRemaining])).toEqual([['Sprained Ankle', 3]]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 10, source: 'goblin' });
    const injuryId = who(e, 'hero').injuries[0]!.id;
    const lines = e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: 'worse', injury: { mode: 'extend', injuryId } });
    expect(who(e, 'hero').injuries.map((i) => [i.name, i.multiplier, i.restsRemaining])).toEqual([['Sprained Ankle', 2, 6]]);
    expect(lines[0]!.text).toContain('Extends: Sprained Ankle (speed), 3 × 2 = 6 rests.');
  });

  it('a first Survive with a duration roll of 1 gives an injury of one rest, said in the singular', () => {
    const e = perilFight();
    const lines = e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: 'limps', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 1 } });
    expect(lines[0]!.text).toContain('Injury: Sprained Ankle (speed), 1 × 1 = 1 rest.');
  });

  it('ENIGMA-20 two different injuries: ankle (Speed) 2 rests, laceration (Endure) 3 × 2 = 6; speed 8 → 6 and Endure checks at +1 disadvantage', () => {
    const e = perilFight();
    e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: '', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 2 } });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 10, source: '' });
    e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: '', injury: { mode: 'new', name: 'Deep Laceration', category: 'endure', baseRoll: 3 } });
    expect(who(e, 'hero').injuries.map((i) => [i.name, i.restsRemaining])).toEqual([['Sprained Ankle', 2], ['Deep Laceration', 6]]);
    const details = rowDetails(e, 'hero');
    expect(details.speed).toBe(6);
    expect(details.disadvantage.endure).toBe(1);
    e.apply({ type: 'END_TURN' });
    // The goblin attacks the hero in melee: the Endure defence now rolls two dice and keeps the lower.
    expect(() => e.apply(melee('goblin', 'hero', 5, 5))).toThrow("Hero's Endure roll needs 2 d10 (1 disadvantage): 1 given.");
  });

  it('R-E9 several PCs at 0 LP resolve one at a time in order of battle', () => {
    const e = fight({}, [seed('hero', 'party'), seed('goblin', 'gm'), seed('ally', 'party')]);
    e.apply({ type: 'AREA_DAMAGE', targets: [{ targetId: 'ally', amount: 20 }, { targetId: 'hero', amount: 20 }, { targetId: 'goblin', amount: 1 }], source: 'Blast' });
    expect(ctx(e).pendingPeril).toEqual(['hero', 'ally']);
    expect(() => e.apply({ type: 'RESOLVE_PERIL', combatantId: 'ally', choice: 'survive', costText: '' })).toThrow('Hero chooses first (R-E9: in order of battle).');
    e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: '' });
    expect(e.view().prompt?.subjectId).toBe('ally');
  });

  it('a GM override that restores LP lifts the peril and is logged', () => {
    const e = perilFight();
    const lines = e.apply({ type: 'OVERRIDE', targetId: 'hero', field: 'lp', value: 3, note: 'misread the damage' });
    expect(e.view().prompt).toBeNull();
    expect(lines[0]!.text).toBe("GM override: Hero's LP set to 3 (misread the damage).");
  });

  it('a temporary LP reduction lowers max LP by 3 and caps current LP (§1.6)', () => {
    const e = perilFight();
    e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: '', injury: { mode: 'new', name: 'Internal bleeding', category: 'maxLp', baseRoll: 1 } });
    expect(e.view().order.find((c) => c.id === 'hero')!.health).toEqual({ label: 'LP', current: 3, max: 7 });
  });

  it('carried injuries and condition apply from the start of a later encounter', () => {
    const carried = { lp: 4, dice: { navigate: 6 }, injuries: [{ id: 'old', name: 'Twisted Ankle', category: 'speed', baseRoll: 2, multiplier: 1, restsRemaining: 1, permanent: false, cureCondition: null, notes: '' }] };
    const e = fight({}, [seed('hero', 'party', {}, { carried }), seed('goblin', 'gm')]);
    const hero = e.view().order.find((c) => c.id === 'hero')!;
    expect([hero.health!.current, rowDetails(e, 'hero').speed]).toEqual([4, 4]);
    expect(hero.tags).toContain('navigate d6 (base d8)');
  });

  it('clears reaction debt when combat ends (R-E6)', () => {
    const e = fight();
    e.apply({ type: 'USE_REACTION', reactorId: 'goblin', power: 'Snap' });
    e.apply({ type: 'END_COMBAT', outcome: 'Truce' });
    expect(who(e, 'goblin').reactionDebt).toBe(0);
  });

  it('logs a skipped last slot once, in the round it belonged to (R-E5)', () => {
    const e = fight();
    e.apply({ type: 'SET_CAN_ACT', combatantId: 'goblin', canAct: false, note: 'stunned' });
    const lines = e.apply({ type: 'END_TURN' });
    expect(lines.filter((l) => l.text === 'Goblin cannot act: turn skipped.').map((l) => l.round)).toEqual([1]);
  });
});

describe('options that choose (issue 27)', () => {
  const prepared = (options: Record<string, string | number | boolean>) => {
    const e = EncounterEngine.create(enigmaEncounter, { options: { ...defaultOptions(enigmaOptions), ...options }, carried: { escalation: null } });
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('goblin', 'gm')] });
    return e;
  };

  it('R-E2 off: "player characters take the first turn unless there is a story reason for the GM to go first" is never waived', () => {
    const ambush = prepared({});
    ambush.apply({ type: 'SET_FIRST_SIDE', side: 'gm' });
    ambush.apply({ type: 'START' });
    expect(ambush.view().activeId).toBe('goblin');
    const never = prepared({ ambushStartsWithGm: false });
    expect(never.view().allowed).not.toContain('SET_FIRST_SIDE');
    expect(() => never.apply({ type: 'SET_FIRST_SIDE', side: 'gm' })).toThrow('This campaign always lets the party take the first slot (R-E2): no ambush.');
    never.apply({ type: 'START' });
    expect(never.view().activeId).toBe('hero');
  });

  it('R-E4 "end": a late arrival always joins at the end of the order; "gmChooses" honours the position', () => {
    const late = (options: Record<string, string | number | boolean>) => {
      const e = fight(options);
      e.apply({ type: 'END_TURN' });
      e.apply({ type: 'END_TURN' }); // round 2: the order is frozen
      return e;
    };
    const chooses = late({});
    chooses.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('ally', 'party'), position: 0 });
    expect(ctx(chooses).order).toEqual(['ally', 'hero', 'goblin']);
    const end = late({ lateArrivalPosition: 'end' });
    expect(() => end.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('ally', 'party'), position: 0 })).toThrow('This campaign adds late arrivals at the end of the order (R-E4): no position can be chosen.');
    end.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('ally', 'party') });
    expect(ctx(end).order).toEqual(['hero', 'goblin', 'ally']);
  });

  it('R-E25 "injuries": "Second Survival: Injury lasts 1d4 × 2 rests" counts injuries, so a first injury after a bare Survive is × 1', () => {
    const twice = (options: Record<string, string | number | boolean>) => {
      const e = fight(options, [seed('hero', 'party', { endure: 10 }), seed('goblin', 'gm')]);
      e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 12, source: 'cave-in' });
      e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: 'a scar' });
      e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 12, source: 'goblin' });
      e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: 'limps', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 3 } });
      return who(e, 'hero');
    };
    expect(twice({}).injuries.map((i) => [i.multiplier, i.restsRemaining])).toEqual([[2, 6]]);
    const byInjury = twice({ survivalCount: 'injuries' });
    expect(byInjury.injuries.map((i) => [i.multiplier, i.restsRemaining])).toEqual([[1, 3]]);
    expect(byInjury.survivals).toBe(2);
  });

  it('R-E27 travels with the Mortal Peril prompt, so its name roll follows the campaign ("reroll a 10 or let the GM choose")', () => {
    const peril = (options: Record<string, string | number | boolean>) => {
      const e = fight(options);
      e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 20, source: 'cave-in' });
      return perilDetailsOf(e.view().prompt)!;
    };
    expect(peril({}).manifestRollOfTen).toBe('reroll');
    expect(peril({ manifestRollOfTen: 'gmChooses' }).manifestRollOfTen).toBe('gmChooses');
  });
});

describe('attack reach (§1.4, issue 27)', () => {
  it('refuses melee at distance 2: "Melee attacks are made against enemies that are next to you."', () => {
    const e = fight();
    expect(() => e.apply(melee('hero', 'goblin', 8, 1, { distance: 2 }))).toThrow('Melee attacks are made against enemies next to the attacker: Goblin is 2 spaces away.');
    expect(who(e, 'goblin').lp).toBe(6);
    e.apply(melee('hero', 'goblin', 8, 1, { distance: 1 }));
    expect(who(e, 'goblin').lp).toBe(5);
  });
});

describe('Hidden (§1.4, issue 27)', () => {
  // source: "A Hidden combatant cannot be targeted by powers, attacks, or capacity checks by a combatant that does not Notice them."
  const hiddenHero = () => {
    const e = fight();
    e.apply({ type: 'HIDE', navigateRoll: app(8), observers: [{ observerId: 'goblin', gleanRoll: app(1) }] });
    e.apply({ type: 'END_TURN' });
    return e;
  };

  it('refuses a power aimed at a hidden combatant by one who has not noticed them', () => {
    const e = hiddenHero();
    expect(() => e.apply({ type: 'USE_POWER', power: 'Hex', cost: 1, targetIds: ['hero'] })).toThrow('Goblin has not noticed the hidden Hero and cannot target it with a power.');
  });

  it('refuses a capacity check aimed at a hidden combatant, and accepts it once noticed', () => {
    const e = hiddenHero();
    const check = { type: 'CHECK', actorId: 'goblin', capacity: 'influence', difficulty: 5, cost: 0, description: 'taunt', targetId: 'hero', roll: app(6) } as GmEvent;
    expect(() => e.apply(check)).toThrow('Goblin has not noticed the hidden Hero and cannot target it with a capacity check.');
    e.apply({ type: 'NOTICE', targetId: 'hero', gleanRoll: app(8), navigateRoll: app(1) });
    expect(e.apply(check)[0]!.text).toContain('taunt on Hero');
  });

  it('refuses a reaction power aimed at a hidden combatant', () => {
    const e = fight();
    e.apply({ type: 'HIDE', navigateRoll: app(8), observers: [{ observerId: 'goblin', gleanRoll: app(1) }] });
    expect(() => e.apply({ type: 'USE_REACTION', reactorId: 'goblin', power: 'Snap', targetIds: ['hero'] })).toThrow('Goblin has not noticed the hidden Hero and cannot target it with a power.');
  });
});

describe('line of sight and cover are separate powers (§1.4, issue 27)', () => {
  it('"does not require a line of sight" drops the unseen disadvantage but does not reach behind a solid wall', () => {
    const e = fight();
    // Unseen with a power that needs no sight: one die, no disadvantage.
    e.apply(melee('hero', 'goblin', 8, 1, { sight: 'unseen', needsNoSight: true }));
    const f = fight();
    expect(() => f.apply(melee('hero', 'goblin', 8, 1, { sight: 'fullCover', needsNoSight: true }))).toThrow('Goblin is completely behind cover and cannot be targeted.');
  });

  it('"allows for targeting through obstacles or cover" reaches behind the wall, unseen and so at a disadvantage', () => {
    const e = fight();
    expect(() => e.apply(melee('hero', 'goblin', 8, 1, { sight: 'unseen', throughCover: true }))).toThrow("Hero's Attack roll needs 2 d8 (1 disadvantage): 1 given.");
    e.apply(melee('hero', 'goblin', 8, 1, { sight: 'fullCover', throughCover: true }));
    expect(who(e, 'goblin').lp).toBe(5);
  });

  it('still replays an attack stored before the split (ignoresSight: both at once)', () => {
    const e = fight();
    e.apply(melee('hero', 'goblin', 8, 1, { sight: 'fullCover', ignoresSight: true }));
    expect(who(e, 'goblin').lp).toBe(5);
  });
});

describe('reaction debt at the end of a round (R-E6, issue 27)', () => {
  it('logs the last slot\'s turn as taken when two reactions empty it: "Using a reaction will subtract one action from the character\'s next turn"', () => {
    const e = fight();
    e.apply({ type: 'USE_REACTION', reactorId: 'goblin', power: 'Snap' });
    e.apply({ type: 'USE_REACTION', reactorId: 'goblin', power: 'Parry' });
    const lines = e.apply({ type: 'END_TURN' });
    expect(lines.map((l) => [l.round, l.text])).toEqual([
      [1, expect.stringContaining('ends')],
      [1, 'Goblin pays two reactions and has no actions this turn.'],
      [2, 'Round 2 begins. Escalation 2.'],
      [2, "Hero's turn (slot 1): 2 actions."],
    ]);
    expect(who(e, 'goblin').reactionDebt).toBe(0);
  });

  it('logs a skipped last slot once, in the round it belonged to (R-E5)', () => {
    const e = fight();
    e.apply({ type: 'SET_CAN_ACT', combatantId: 'goblin', canAct: false, note: 'stunned' });
    const lines = e.apply({ type: 'END_TURN' });
    expect(lines.filter((l) => l.text === 'Goblin cannot act: turn skipped.').map((l) => l.round)).toEqual([1]);
  });
});
