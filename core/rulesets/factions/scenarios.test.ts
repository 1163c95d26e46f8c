// Factions' worked example (RULES.md §3.7) by its ID, and the turn, attack, health and morale rules of §3.3–§3.6.
import { describe, expect, it } from 'vitest';
import { durabilityDetailsOf, factionsEncounter } from './encounter.ts';
import { EncounterEngine } from '../../encounter/kernel.ts';
import { defaultOptions } from '../options.ts';
import { factionsOptions } from './options.ts';
import { app, ctx, damage, encounter, fight, melee, rowDetails, seed, texts, who } from './testing.ts';

describe('FACTIONS-01 fast action threshold (the text\'s example)', () => {
  function setupExample() {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('balthasar', 'party', { wit: 12 }), seed('sybilla', 'party', { wit: 6 }), seed('theobald', 'party', { wit: 9 })] });
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('b1', 'gm', { wit: 8, agi: 10 }), seed('b2', 'gm', { wit: 8 }), seed('leader', 'gm', { wit: 10 })] });
    e.apply({ type: 'RENAME_FACTION', key: 'party', label: 'Players' });
    e.apply({ type: 'RENAME_FACTION', key: 'gm', label: 'Bandits' });
    e.apply({ type: 'SET_OPTIONAL_RULES', fastSlow: true, chaos: false });
    e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
    e.apply({ type: 'START' });
    return e;
  }

  it('FACTIONS-01 fast phase, slow phase and the turn log Theobald, B1 (reaction), Leader, Sybilla, B2, Balthasar', () => {
    const e = setupExample();
    expect(e.view().prompt?.answer).toBe('ROLL_FAT');
    const fat = e.apply({ type: 'ROLL_FAT', roll: app(9) });
    expect(texts(fat)[0]).toBe('Fast action threshold: d20 [9]. Fast phase: Balthasar, Theobald, Leader (WIT 9 or more).');
    expect(e.view().prompt?.answer).toBe('CHOOSE_FIRST_FACTION');
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['balthasar', 'theobald', 'pass']);
    expect(() => e.apply({ type: 'SELECT_CHARACTER', combatantId: 'sybilla' })).toThrow("Sybilla's WIT 6 is below the fast action threshold 9: wait for the slow phase.");
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'theobald' });
    e.apply({ type: 'ATTACK', attackerId: 'theobald', targetIds: ['b1'], kind: 'melee' });
    // B1 may dodge although its WIT 8 is below the FAT: reactions happen in either phase.
    expect(e.view().prompt?.choices.map((c) => c.id)).toContain('dodge');
    e.apply({ type: 'REACT', reaction: 'dodge', roll: app(4) });
    expect(e.view().prompt).toBeNull();
    e.apply({ type: 'END_TURN' });
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['leader', 'pass']);
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'leader' });
    e.apply({ type: 'END_TURN' });
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['balthasar', 'pass']);
    const pass = e.apply({ type: 'PASS' }); // Balthasar is held back on purpose
    expect(texts(pass)).toContain('Bandits have nobody who can act: automatic pass (2 in a row).');
    expect(texts(pass)).toContain('Every faction passed in a row: the fast phase ends. Slow phase: everyone who has not acted may take a turn.');
    expect(e.view().prompt?.answer).toBe('CHOOSE_FIRST_FACTION'); // R-F6: chosen again in the slow phase
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'sybilla' });
    e.apply({ type: 'END_TURN' });
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['b2', 'pass']); // B1 spent its turn on the dodge
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'b2' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'balthasar' });
    const last = e.apply({ type: 'END_TURN' });
    expect(texts(last)).toEqual(expect.arrayContaining([
      'Bandits have nobody who can act: automatic pass (1 in a row).',
      'Players have nobody who can act: automatic pass (2 in a row).',
      'Every faction passed in a row: round 1 ends.',
      'Morale phase: nobody has to check.',
      'Round 2 begins: roll the fast action threshold.',
    ]));
    const log = ctx(e).history.filter((h) => h.round === 1).map((h) => `${who(e, h.id).name}${h.kind === 'reaction' ? ' (reaction)' : ''}`);
    expect(log).toEqual(['Theobald', 'B1 (reaction)', 'Leader', 'Sybilla', 'B2', 'Balthasar']);
    expect(e.view().round).toBe(2);
    expect(e.view().prompt?.answer).toBe('ROLL_FAT');
  });
});

describe('the turn budget (§3.3)', () => {
  it('a bonus action, a main action and one zone of movement, in any order', () => {
    const e = fight();
    e.apply({ type: 'MOVE_ZONE', to: 'hall' });
    e.apply({ type: 'BONUS_ACTION', kind: 'pickUp', item: 'other', note: 'a torch' });
    expect(e.view().turn).toEqual({ actionsLeft: 1, actionsPerTurn: 2 });
    e.apply({ type: 'MAIN_ACTION', kind: 'interact', note: 'forces the gate' });
    expect(e.view().turn).toEqual({ actionsLeft: 0, actionsPerTurn: 2 });
    expect(() => e.apply({ type: 'BONUS_ACTION', kind: 'speak' })).toThrow('Hero has no actions left this turn (only the zone move, already used).');
    expect(() => e.apply({ type: 'MOVE_ZONE', to: 'yard' })).toThrow('Hero has already moved a zone this turn.');
    expect(() => e.apply(melee('hero', 'foe'))).toThrow('Hero has already taken a main action this turn. An attack is a main action.');
  });

  it('a second bonus action takes the place of the main action; a swap is two bonus actions', () => {
    const e = fight();
    e.apply({ type: 'BONUS_ACTION', kind: 'consumable', item: 'other', note: 'healing draught' });
    e.apply({ type: 'BONUS_ACTION', kind: 'interact', note: 'pulls the lever' });
    expect(() => e.apply(melee('hero', 'foe'))).toThrow('Hero used a second bonus action instead of the main action. An attack is a main action.');
    const swap = fight();
    swap.apply({ type: 'BONUS_ACTION', kind: 'swap', item: 'weapon' });
    expect(swap.view().turn!.actionsLeft).toBe(0);
    const late = fight();
    late.apply({ type: 'BONUS_ACTION', kind: 'speak' });
    expect(() => late.apply({ type: 'BONUS_ACTION', kind: 'swap', item: 'weapon' })).toThrow('Swapping two items takes two bonus actions, the main one included; Hero has only 1 action left.');
  });

  it('armour cannot be changed during a fight', () => {
    const e = fight();
    for (const kind of ['equip', 'unequip', 'swap'] as const) {
      expect(() => e.apply({ type: 'BONUS_ACTION', kind, item: 'armour' })).toThrow('Armour cannot be put on, taken off or swapped during a fight.');
    }
  });

  it('surrender takes the whole turn and ends it (R-F9)', () => {
    const e = fight();
    e.apply({ type: 'MOVE_ZONE', to: 'door' });
    expect(() => e.apply({ type: 'SURRENDER' })).toThrow('Surrendering takes the whole turn, and Hero has already acted this turn (R-F9).');
    const s = fight([seed('hero', 'party'), seed('ally', 'party'), seed('foe', 'gm')]);
    const lines = s.apply({ type: 'SURRENDER' });
    expect(lines[0]!.rulings).toEqual(['R-F9']);
    expect([who(s, 'hero').surrendered, s.view().activeId, ctx(s).current]).toEqual([true, null, 'gm']);
  });

  it('the runner shows what the active character may still do: bonus, main (or a second bonus), zone move', () => {
    const e = fight();
    const left = () => e.view().counters.find((c) => c.key === 'turnLeft')?.value;
    expect(left()).toBe('bonus action · main action (or a 2nd bonus) · zone move');
    expect(e.view().turn).toEqual({ actionsLeft: 2, actionsPerTurn: 2 });
    e.apply({ type: 'BONUS_ACTION', kind: 'speak' });
    expect(left()).toBe('main action or a 2nd bonus · zone move');
    e.apply({ type: 'MOVE_ZONE', to: 'door' });
    expect([left(), e.view().allowed.includes('MOVE_ZONE')]).toEqual(['main action or a 2nd bonus', false]);
    e.apply({ type: 'MAIN_ACTION', kind: 'interact' });
    expect([left(), e.view().turn]).toEqual(['nothing: end the turn', { actionsLeft: 0, actionsPerTurn: 2 }]);
    expect(e.view().allowed).not.toContain('BONUS_ACTION');
    e.apply({ type: 'END_TURN' });
    expect(e.view().counters.some((c) => c.key === 'turnLeft')).toBe(false);
  });

  it('the chaos of combat: 15 seconds to declare, or the turn is lost', () => {
    const e = fight([], { chaosOfCombat: true } as Record<string, boolean>);
    expect(e.view().counters).toContainEqual({ key: 'chaos', label: 'Declare within', value: '15 s', countdown: 15, atZero: { type: 'DECLARATION_TIMEOUT' } });
    expect(e.view().allowed).toContain('DECLARATION_TIMEOUT');
    const lines = e.apply({ type: 'DECLARATION_TIMEOUT' });
    expect(texts(lines)[0]).toBe('Hero did not declare within 15 seconds and does nothing this turn (chaos of combat).');
    expect(() => fight().apply({ type: 'DECLARATION_TIMEOUT' })).toThrow('The chaos of combat is not in play in this fight.');
  });
});

describe('to hit (§3.4 steps 1–2, R-F11)', () => {
  const ranged = (extra: Record<string, unknown> = {}) => ({ type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'ranged', ...extra });
  it('hits automatically in normal circumstances', () => {
    const e = fight();
    const lines = e.apply(melee('hero', 'foe'));
    expect(texts(lines)[0]).toBe('Hero makes a melee attack (d6) on Foe. It hits automatically.');
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'REACT', reaction: 'dodge' })).toEqual([{ path: ['roll'], label: 'Foe: AGI save to dodge', notation: '1d20', count: 1, sides: 20 }]);
  });

  it('needs a WIT save for an unseen melee target: a failed save misses and deals nothing', () => {
    const e = fight();
    expect(factionsEncounter.rollsFor!(e.snapshot, melee('hero', 'foe', { unseen: true }))).toEqual([{ path: ['attackRoll'], label: 'Hero: WIT save to hit', notation: '1d20', count: 1, sides: 20 }]);
    expect(() => e.apply(melee('hero', 'foe', { unseen: true }))).toThrow("Hero's WIT save to hit needs a d20.");
    const lines = e.apply(melee('hero', 'foe', { unseen: true, attackRoll: app(11) }));
    expect(texts(lines)[0]).toBe('Hero makes a melee attack (d6) on Foe. WIT save to hit (the target is not visible): d20 [11] against WIT 10, miss.');
    expect([e.view().prompt, who(e, 'foe').health]).toEqual([null, 10]);
  });

  it('ranged: beyond half range or while moving needs a save; both together, or an unseen target, is impossible', () => {
    const e = fight();
    expect(() => e.apply(ranged({ unseen: true }))).toThrow('A ranged attack needs a visible target');
    expect(() => e.apply(ranged({ range: 'beyondHalf', moving: true, attackRoll: app(1) }))).toThrow('Hero cannot target beyond half range while moving (R-F11');
    const beyond = e.apply(ranged({ range: 'beyondHalf', attackRoll: app(10) }));
    expect(texts(beyond)[0]).toContain('WIT save to hit (beyond half range): d20 [10] against WIT 10, hit');
    const moving = fight();
    moving.apply({ type: 'MOVE_ZONE', to: 'ridge' });
    expect(texts(moving.apply(ranged({ attackRoll: app(3) })))[0]).toContain('(while moving)');
  });

  it('R-F11 an attack made standing still closes the zone move for the turn', () => {
    const e = fight();
    e.apply(ranged());
    e.apply({ type: 'REACT', reaction: 'none' });
    e.apply(damage(2));
    expect(() => e.apply({ type: 'MOVE_ZONE', to: 'yard' })).toThrow('Hero attacked at range this turn without moving; moving now would make it an attack while moving (R-F11).');
    const planned = fight();
    planned.apply(ranged({ moving: true, attackRoll: app(2) }));
    planned.apply({ type: 'REACT', reaction: 'none' });
    planned.apply(damage(2));
    expect(() => planned.apply({ type: 'MOVE_ZONE', to: 'yard' })).not.toThrow();
  });

  it('indirect attacks: always a WIT save, only beyond half range, never while moving, over barriers and at unseen targets', () => {
    const e = fight();
    expect(() => e.apply({ ...ranged({ kind: 'indirect' }) })).toThrow('An indirect attack can only target beyond half range.');
    expect(() => e.apply({ ...ranged({ kind: 'indirect', range: 'beyondHalf', moving: true }) })).toThrow('Hero cannot make an indirect attack while moving (R-F11).');
    const lines = e.apply(ranged({ kind: 'indirect', range: 'beyondHalf', unseen: true, protection: 'barrier', attackRoll: app(4) }));
    expect(texts(lines)[0]).toContain('WIT save to hit (an indirect attack): d20 [4] against WIT 10, hit');
  });

  it('melee needs a nearby target: same zone or its border', () => {
    const e = fight();
    e.apply({ type: 'SET_ZONE', combatantId: 'hero', zone: 'hall' });
    e.apply({ type: 'SET_ZONE', combatantId: 'foe', zone: 'yard' });
    expect(() => e.apply(melee('hero', 'foe'))).toThrow('Foe is not nearby Hero: a melee attack needs a target in the same zone or on its border.');
    expect(() => e.apply(melee('hero', 'foe', { border: true }))).not.toThrow();
  });

  it('a GM-named challenging circumstance needs a save too', () => {
    const e = fight();
    expect(texts(e.apply(melee('hero', 'foe', { challenging: true, attackRoll: app(2) })))[0]).toContain('(challenging circumstances)');
  });
});

describe('damage, impaired, cover and armour (§3.4 steps 5–7, R-F16, R-F17)', () => {
  it('a weapon rolls its die; armour is subtracted, down to 0 (R-F17), or to 1 with the alternative', () => {
    const e = fight([seed('hero', 'party', { weaponDie: 8 }), seed('foe', 'gm', { armour: 2 })]);
    e.apply(melee('hero', 'foe'));
    e.apply({ type: 'REACT', reaction: 'none' });
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'RESOLVE_ATTACK' })).toEqual([{ path: ['damageRoll'], label: 'Hero: damage', notation: '1d8', count: 1, sides: 8 }]);
    const lines = e.apply(damage(5));
    expect(texts(lines)).toContain('Hero hits Foe: 5 − armour 2: 3 damage. Foe 10 → 7 health.');
    const stopped = fight([seed('hero', 'party'), seed('foe', 'gm', { armour: 3 })]);
    stopped.apply(melee('hero', 'foe'));
    stopped.apply({ type: 'REACT', reaction: 'none' });
    expect(texts(stopped.apply(damage(2)))).toContain("Foe's armour stops Hero's hit: 2 − armour 3 = 0.");
    const floor = fight([seed('hero', 'party'), seed('foe', 'gm', { armour: 3 })], { armourFloor: 'one' });
    floor.apply(melee('hero', 'foe'));
    floor.apply({ type: 'REACT', reaction: 'none' });
    floor.apply(damage(2));
    expect(who(floor, 'foe').health).toBe(9);
  });

  it('R-F16 unarmed is d4 impaired: roll twice, keep the lower; the flat-d4 alternative rolls one d4', () => {
    const e = fight();
    e.apply(melee('hero', 'foe', { weapon: 'unarmed' }));
    e.apply({ type: 'REACT', reaction: 'none' });
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'RESOLVE_ATTACK' })[0]!.notation).toBe('2d4kl1');
    expect(() => e.apply(damage(4))).toThrow("Hero's damage roll needs 2 d4 (impaired: keep the lower): 1 given.");
    const lines = e.apply(damage(4, 2));
    expect(texts(lines)[0]).toBe("Hero's damage: d4 twice, keep the lower (impaired: unarmed) [4, 2] → 2.");
    expect(lines[0]!.rulings).toEqual(['R-F16']);
    const flat = fight([], { impairedMode: 'flatD4' });
    flat.apply(melee('hero', 'foe', { holdBack: true }));
    flat.apply({ type: 'REACT', reaction: 'none' });
    expect(factionsEncounter.rollsFor!(flat.snapshot, { type: 'RESOLVE_ATTACK' })[0]!.notation).toBe('1d4');
  });

  it('R-F16 impaired twice is ineffective; enhanced cancels one impairment; several enhancements count as one', () => {
    const twice = fight();
    twice.apply(melee('hero', 'foe', { holdBack: true, concealment: true }));
    const lines = twice.apply({ type: 'REACT', reaction: 'none' }); // nothing to roll: resolved at once
    expect(texts(lines)).toContain("Hero's damage: impaired twice (held back, concealment): ineffective, 0.");
    expect(who(twice, 'foe').health).toBe(10);
    const cancelled = fight();
    cancelled.apply(melee('hero', 'foe', { holdBack: true, enhanced: true }));
    cancelled.apply({ type: 'REACT', reaction: 'none' });
    expect(factionsEncounter.rollsFor!(cancelled.snapshot, { type: 'RESOLVE_ATTACK' })[0]!.notation).toBe('1d6');
    const enhanced = fight();
    enhanced.apply(melee('hero', 'foe', { enhanced: true }));
    enhanced.apply({ type: 'REACT', reaction: 'none' });
    expect(factionsEncounter.rollsFor!(enhanced.snapshot, { type: 'RESOLVE_ATTACK' })[0]!.notation).toBe('2d6kh1');
  });

  it('cover adds 1 armour unless the attack punches through; a barrier blocks attacks completely', () => {
    const e = fight();
    e.apply(melee('hero', 'foe', { protection: 'cover' }));
    e.apply({ type: 'REACT', reaction: 'none' });
    expect(texts(e.apply(damage(4)))).toContain('Hero hits Foe: 4 − armour 1 (cover included): 3 damage. Foe 10 → 7 health.');
    const pierced = fight();
    pierced.apply(melee('hero', 'foe', { protection: 'cover', pierces: true }));
    pierced.apply({ type: 'REACT', reaction: 'none' });
    pierced.apply(damage(4));
    expect(who(pierced, 'foe').health).toBe(6);
    expect(() => fight().apply(melee('hero', 'foe', { protection: 'barrier' }))).toThrow('Foe is behind a barrier, which blocks attacks completely');
  });

  it('a shield adds its bonus to armour while it lasts', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { armour: 1, hasShield: true, shieldArmour: 1 })]);
    e.apply(melee('hero', 'foe'));
    e.apply({ type: 'REACT', reaction: 'none' });
    e.apply(damage(5));
    expect(who(e, 'foe').health).toBe(7);
  });
});

describe('reactions (§3.4 step 4): each takes the reactor\'s whole turn', () => {
  it('dodge: an AGI save, a pass makes the attack miss', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { agi: 12 })]);
    e.apply(melee('hero', 'foe'));
    const lines = e.apply({ type: 'REACT', reaction: 'dodge', roll: app(12) });
    expect(texts(lines)[0]).toBe("Foe reacts with a dodge (the reaction is this round's turn): AGI save d20 [12] against AGI 12, the attack misses.");
    expect([who(e, 'foe').acted, who(e, 'foe').health, e.view().prompt]).toEqual([true, 10, null]);
    const failed = fight([seed('hero', 'party'), seed('foe', 'gm', { agi: 12 })]);
    failed.apply(melee('hero', 'foe'));
    failed.apply({ type: 'REACT', reaction: 'dodge', roll: app(13) });
    failed.apply(damage(3));
    expect(who(failed, 'foe').health).toBe(7);
  });

  it('no reaction for a target that already acted, is unaware, or is attacked by a concealed character', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm'), seed('watcher', 'gm')]);
    e.apply({ type: 'SET_STATUS', combatantId: 'watcher', status: 'unaware', on: true });
    e.apply(melee('hero', 'watcher'));
    // Unaware: no dodge or counter of its own; the foe beside it may still guard it.
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['none', 'guard:foe']);
    expect(() => e.apply({ type: 'REACT', reaction: 'dodge', roll: app(1) })).toThrow('Watcher is unaware of the attacker and cannot react.');
    e.apply({ type: 'REACT', reaction: 'none' });
    expect(e.view().prompt?.answer).toBe('RESOLVE_ATTACK');
    const sneaky = fight();
    sneaky.apply({ type: 'SET_STATUS', combatantId: 'hero', status: 'concealed', on: true });
    expect(texts(sneaky.apply(melee('hero', 'foe')))).toEqual(expect.arrayContaining(['Hero is revealed (attacking).', 'Foe is taken by surprise by a concealed attacker and cannot react.']));
  });

  it('counter: both roll together, the one suffering more is hit first and a dropped one\'s attack does not land (R-F13)', () => {
    const e = fight([seed('hero', 'party', { health: 10, str: 10, healthMax: 10, weaponDie: 8 }), seed('foe', 'gm', { health: 4, str: 4, healthMax: 4, weaponDie: 8 })]);
    e.apply(melee('hero', 'foe'));
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['none', 'dodge', 'counter', 'counter:unarmed', 'counter:ranged', 'counter:rangedFar', 'counter:disarm', 'counter:grapple']);
    e.apply({ type: 'REACT', reaction: 'counter' });
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'RESOLVE_ATTACK' }).map((r) => r.path[0])).toEqual(['damageRoll', 'counterDamageRoll']);
    const lines = e.apply({ type: 'RESOLVE_ATTACK', damageRoll: app(3), counterDamageRoll: app(2) });
    expect(texts(lines)).toEqual(expect.arrayContaining([
      'Counter order: Foe suffers more (3 against 2) and is hit first.',
      'Foe was dropped first: their counter on Hero does not land.',
    ]));
    expect([who(e, 'foe').incapacitated, who(e, 'hero').health]).toEqual([true, 10]);
  });

  it('counter: equal damage after reductions lands on both at the same time', () => {
    const e = fight([seed('hero', 'party', { health: 4, str: 4, healthMax: 4 }), seed('foe', 'gm', { health: 4, str: 4, healthMax: 4 })]);
    e.apply(melee('hero', 'foe'));
    e.apply({ type: 'REACT', reaction: 'counter' });
    const lines = e.apply({ type: 'RESOLVE_ATTACK', damageRoll: app(3), counterDamageRoll: app(3) });
    expect(texts(lines)).toContain('Counter order: both suffer 3 after armour: they are hit at the same time.');
    expect([who(e, 'hero').incapacitated, who(e, 'foe').incapacitated]).toEqual([true, true]);
    // The attacker was dropped by the counter: its turn ends.
    expect(e.view().activeId).toBeNull();
  });

  it('R-F12 a counter must be a legal attack; the alternative accepts any', () => {
    const e = fight();
    e.apply({ type: 'SET_ZONE', combatantId: 'hero', zone: 'hall' });
    e.apply({ type: 'SET_ZONE', combatantId: 'foe', zone: 'gate' });
    e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'ranged' });
    expect(() => e.apply({ type: 'REACT', reaction: 'counter' })).toThrow('Not a fitting counter (R-F12): Hero is not nearby Foe');
    expect(() => e.apply({ type: 'REACT', reaction: 'counter', counter: { kind: 'ranged', range: 'beyondHalf' } })).toThrow("Foe's WIT save to hit with the counter (R-F12) needs a d20.");
    e.apply({ type: 'REACT', reaction: 'counter', counter: { kind: 'ranged', range: 'beyondHalf', attackRoll: app(15) } });
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'RESOLVE_ATTACK' }).map((r) => r.path[0])).toEqual(['damageRoll']);
    const loose = fight([], { counterMustBeLegal: false });
    loose.apply({ type: 'SET_ZONE', combatantId: 'hero', zone: 'hall' });
    loose.apply({ type: 'SET_ZONE', combatantId: 'foe', zone: 'gate' });
    loose.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'ranged' });
    expect(() => loose.apply({ type: 'REACT', reaction: 'counter' })).not.toThrow();
  });

  it('R-F12 the prompt offers each legal counter as its own answer: ranged from another zone, with its WIT save rolled beyond half range', () => {
    const e = fight();
    e.apply({ type: 'SET_ZONE', combatantId: 'hero', zone: 'hall' });
    e.apply({ type: 'SET_ZONE', combatantId: 'foe', zone: 'gate' });
    e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'ranged' });
    // Melee counters (weapon, unarmed, disarm, grapple) need the attacker nearby: not offered.
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['none', 'dodge', 'counter:ranged', 'counter:rangedFar']);
    // Each button sends its answer as fields of REACT, never a packed string.
    expect(e.view().prompt!.choices.map((c) => c.answer)).toEqual([
      { reaction: 'none' }, { reaction: 'dodge' }, { reaction: 'counter', counterPreset: 'ranged' }, { reaction: 'counter', counterPreset: 'rangedFar' },
    ]);
    expect(() => e.apply({ type: 'REACT', reaction: 'counter', counterPreset: 'unarmed' })).toThrow('Not a fitting counter (R-F12): Hero is not nearby Foe');
    expect(() => e.apply({ type: 'REACT', reaction: 'counter', counterPreset: 'bite' })).toThrow('A counter is one of melee, unarmed, ranged, rangedFar, disarm, grapple.');
    // The answer comes from a prompt button as { type, ...answer }: the app rolls the counter's save into `roll`.
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'REACT', reaction: 'counter', counterPreset: 'rangedFar' })).toEqual([{ path: ['roll'], label: 'Foe: WIT save to hit with the counter', notation: '1d20', count: 1, sides: 20 }]);
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'REACT', reaction: 'counter', counterPreset: 'ranged' })).toEqual([]);
    expect(() => e.apply({ type: 'REACT', reaction: 'counter', counterPreset: 'rangedFar' })).toThrow("Foe's WIT save to hit with the counter (R-F12) needs a d20.");
    const lines = e.apply({ type: 'REACT', reaction: 'counter', counterPreset: 'rangedFar', roll: app(12) });
    expect(texts(lines)[0]).toBe("Foe counters (the reaction is this round's turn) with a ranged attack beyond half range (d6) on Hero; WIT save to hit (beyond half range): d20 [12] against WIT 10, miss. Both roll damage together.");
    expect(lines[0]!.rulings).toEqual(['R-F5', 'R-F12']);
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'RESOLVE_ATTACK' }).map((r) => r.path[0])).toEqual(['damageRoll']);
  });

  it('an unarmed counter when disarmed: d4 impaired; a grapple counter is resolved last', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { weaponDie: 8 })]);
    e.apply({ type: 'OVERRIDE', field: 'disarmed', targetId: 'foe', value: 'on', note: '' });
    e.apply(melee('hero', 'foe'));
    const offered = e.view().prompt!.choices;
    expect(offered.map((c) => c.id)).toEqual(['none', 'dodge', 'counter:unarmed', 'counter:disarm', 'counter:grapple']);
    expect(offered.find((c) => c.id === 'counter:unarmed')!.label).toBe('Counter: unarmed (d4 impaired)');
    e.apply({ type: 'REACT', reaction: 'counter', counterPreset: 'unarmed' });
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'RESOLVE_ATTACK' }).map((r) => r.notation)).toEqual(['1d6', '2d4kl1']);
    const grapple = fight([seed('hero', 'party', { str: 8 }), seed('foe', 'gm')]);
    grapple.apply(melee('hero', 'foe'));
    expect(texts(grapple.apply({ type: 'REACT', reaction: 'counter', counterPreset: 'grapple' }))[0]).toBe("Foe counters (the reaction is this round's turn) with a grapple attempt (non-lethal, resolved last) on Hero.");
    const lines = grapple.apply({ type: 'RESOLVE_ATTACK', damageRoll: app(2), counterSaveRoll: app(15) });
    expect(texts(lines)).toEqual(expect.arrayContaining(['Counter order: the non-lethal attack is resolved last.', "Hero's STR save against Foe's grapple: d20 [15] against STR 8, grabbed and entangled while Foe holds on."]));
    expect(who(grapple, 'hero').grabbedBy).toBe('foe');
  });

  it('non-lethal attacks are resolved last in a counter, and can disarm', () => {
    const e = fight([seed('hero', 'party', { str: 8 }), seed('foe', 'gm')]);
    e.apply(melee('hero', 'foe', { effect: 'disarm' }));
    e.apply({ type: 'REACT', reaction: 'counter' });
    // Hero's health is STR 8 (R-F20): a counter of 3 is less than half of it.
    const lines = e.apply({ type: 'RESOLVE_ATTACK', saveRoll: app(15), counterDamageRoll: app(3) });
    expect(texts(lines)).toEqual(expect.arrayContaining([
      'Counter order: the non-lethal attack is resolved last.',
      "Foe's STR save against Hero's disarm: d20 [15] against STR 10, the weapon is dropped.",
    ]));
    expect(who(e, 'foe').disarmed).toBe(true);
    expect(who(e, 'hero').health).toBe(5);
    // Had the counter dropped the attacker first, the disarm would not have landed (R-F13).
    const dropped = fight([seed('hero', 'party'), seed('foe', 'gm')]);
    dropped.apply(melee('hero', 'foe', { effect: 'disarm' }));
    dropped.apply({ type: 'REACT', reaction: 'counter' });
    expect(texts(dropped.apply({ type: 'RESOLVE_ATTACK', saveRoll: app(15), counterDamageRoll: app(5) }))).toContain('Hero was dropped first: their attack on Foe does not land.');
    expect(who(dropped, 'foe').disarmed).toBe(false);
  });

  it('hide behind a nearby character who agrees: they become the target and may react; no one twice (R-F15)', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm'), seed('friend', 'gm'), seed('bodyguard', 'gm')]);
    e.apply(melee('hero', 'foe'));
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(expect.arrayContaining(['hideBehind:friend', 'guard:friend', 'guard:bodyguard']));
    const lines = e.apply({ type: 'REACT', reaction: 'hideBehind', behindId: 'friend' });
    expect(lines[0]!.rulings).toEqual(['R-F5', 'R-F15']);
    expect([e.view().prompt?.subjectId, who(e, 'foe').acted]).toEqual(['friend', true]);
    expect(() => e.apply({ type: 'REACT', reaction: 'hideBehind', behindId: 'foe' })).toThrow('Foe has already been the target of this attack (R-F15).');
    e.apply({ type: 'REACT', reaction: 'hideBehind', behindId: 'bodyguard' });
    e.apply({ type: 'REACT', reaction: 'none' });
    e.apply(damage(4));
    expect([who(e, 'bodyguard').health, who(e, 'friend').health, who(e, 'foe').health]).toEqual([6, 10, 10]);
    const once = fight([seed('hero', 'party'), seed('foe', 'gm'), seed('friend', 'gm'), seed('bodyguard', 'gm')], { redirectionChain: 'once' });
    once.apply(melee('hero', 'foe'));
    once.apply({ type: 'REACT', reaction: 'hideBehind', behindId: 'friend' });
    expect(() => once.apply({ type: 'REACT', reaction: 'hideBehind', behindId: 'bodyguard' })).toThrow('This campaign allows one redirection per attack (R-F15)');
  });

  it('guard: the guard becomes the target and, having reacted, cannot dodge or counter', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm'), seed('bodyguard', 'gm')]);
    e.apply(melee('hero', 'foe'));
    const lines = e.apply({ type: 'REACT', reaction: 'guard', guardId: 'bodyguard' });
    expect(texts(lines)[0]).toBe("Bodyguard guards Foe (the reaction is Bodyguard's turn) and becomes the target; having spent the reaction, Bodyguard cannot dodge or counter.");
    expect(e.view().prompt?.answer).toBe('RESOLVE_ATTACK');
    e.apply(damage(2));
    expect([who(e, 'bodyguard').health, who(e, 'bodyguard').acted, who(e, 'foe').acted]).toEqual([8, true, false]);
    // A target that has already acted cannot react itself, but may still be guarded.
    const spent = fight([seed('hero', 'party'), seed('foe', 'gm'), seed('bodyguard', 'gm')]);
    spent.apply({ type: 'OVERRIDE', targetId: 'foe', field: 'acted', value: true, note: 'dodged earlier' });
    spent.apply(melee('hero', 'foe'));
    expect(spent.view().prompt?.choices.map((c) => c.id)).toEqual(['none', 'guard:bodyguard']);
    expect(() => spent.apply({ type: 'REACT', reaction: 'dodge', roll: app(1) })).toThrow("Foe has already used this round's turn and cannot react.");
  });

  it('R-F14 a grabbed character used as cover cannot refuse and gets no reaction, unless the GM allows it', () => {
    const grabThenShoot = (options: Record<string, boolean> = {}) => {
      const e = fight([seed('hero', 'party', { str: 12 }), seed('foe', 'gm', { str: 5 }), seed('archer', 'gm')], options);
      e.apply(melee('hero', 'foe', { effect: 'grapple' }));
      e.apply({ type: 'REACT', reaction: 'none' });
      const grab = e.apply({ type: 'RESOLVE_ATTACK', saveRoll: app(9) });
      expect(texts(grab)).toContain("Foe's STR save against Hero's grapple: d20 [9] against STR 5, grabbed and entangled while Hero holds on.");
      e.apply({ type: 'END_TURN' });
      e.apply({ type: 'PASS' }); // enemies pass; the party has nobody left: round 1 ends
      e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'gm' });
      e.apply({ type: 'SELECT_CHARACTER', combatantId: 'archer' });
      e.apply({ type: 'ATTACK', attackerId: 'archer', targetIds: ['hero'], kind: 'ranged' });
      const hide = e.apply({ type: 'REACT', reaction: 'hideBehind', behindId: 'foe' });
      expect(texts(hide)[0]).toBe("Hero hides behind Foe, who is held and cannot refuse (the reaction is Hero's turn): Foe becomes the target and may react.");
      return e;
    };
    const e = grabThenShoot();
    expect(e.view().prompt?.answer).toBe('RESOLVE_ATTACK');
    expect(ctx(e).log.some((l) => l.text === 'Foe is held and gets no reaction of their own (R-F14).')).toBe(true);
    const allowed = grabThenShoot({ grabbedMayReact: true });
    expect([allowed.view().prompt?.answer, allowed.view().prompt?.subjectId]).toEqual(['REACT', 'foe']);
  });

  it('opportunity attack: an enemy moving away is interrupted; it cannot react; its turn goes on unless dropped', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { weaponDie: 8 })]);
    const lines = e.apply({ type: 'ATTACK', attackerId: 'foe', targetIds: ['hero'], kind: 'melee', reaction: 'opportunity' });
    expect(texts(lines)).toEqual(['Opportunity attack: Foe makes a melee attack (d8) on Hero as Hero moves away. It hits automatically.', 'Hero cannot react to an opportunity attack: the turn is already being spent.']);
    e.apply(damage(3));
    expect([who(e, 'foe').acted, e.view().activeId]).toEqual([true, 'hero']);
    e.apply({ type: 'MOVE_ZONE', to: 'corridor' });
    expect(() => e.apply({ type: 'ATTACK', attackerId: 'foe', targetIds: ['hero'], kind: 'melee', reaction: 'opportunity' })).toThrow("Foe has already used this round's turn");
    const dropped = fight([seed('hero', 'party', { health: 4, str: 4, healthMax: 4 }), seed('ally', 'party'), seed('foe', 'gm')]);
    dropped.apply({ type: 'ATTACK', attackerId: 'foe', targetIds: ['hero'], kind: 'melee', reaction: 'opportunity' });
    expect(texts(dropped.apply(damage(2)))).toContain('Hero can no longer act: the turn ends.');
  });

  it('a stunt is offered after the save and before reactions: accepted it replaces damage and reactions; declined the attack goes on', () => {
    const e = fight();
    e.apply(melee('hero', 'foe', { stunt: 'cuts the bowstring' }));
    expect(e.view().prompt).toMatchObject({ answer: 'STUNT_ANSWER', subjectId: 'foe' });
    expect(texts(e.apply({ type: 'STUNT_ANSWER', decision: 'accept' }))[0]).toBe('Foe accepts the stunt: cuts the bowstring. No damage, and no reaction.');
    expect([e.view().prompt, who(e, 'foe').acted, who(e, 'foe').health]).toEqual([null, false, 10]);
    const declined = fight();
    declined.apply(melee('hero', 'foe'));
    declined.apply({ type: 'OFFER_STUNT', text: 'forces a surrender' });
    declined.apply({ type: 'STUNT_ANSWER', decision: 'decline' });
    expect(declined.view().prompt?.answer).toBe('REACT');
  });
});

describe('blast attacks (§3.4 step 9, R-F19)', () => {
  function zoned(options: Record<string, boolean> = {}) {
    const e = fight([seed('hero', 'party'), seed('ally', 'party'), seed('foe', 'gm'), seed('imp', 'gm'), seed('far', 'gm')], options);
    for (const [id, zone] of [['hero', 'hall'], ['ally', 'hall'], ['foe', 'hall'], ['imp', 'hall'], ['far', 'yard']] as const) e.apply({ type: 'SET_ZONE', id, zone });
    return e;
  }

  it('a melee blast hits everyone else in the attacker\'s zone, cannot miss, and may still be dodged (R-F19)', () => {
    const e = zoned();
    const lines = e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: [], kind: 'melee', blast: true, zone: 'hall', challenging: true });
    expect(texts(lines)[0]).toBe('Hero makes a melee blast (d6) on Ally, Foe, Imp. A melee blast cannot miss.');
    expect(lines[0]!.rulings).toContain('R-F19');
    e.apply({ type: 'REACT', reaction: 'none' }); // ally
    e.apply({ type: 'REACT', reaction: 'dodge', roll: app(1) }); // foe dodges
    e.apply({ type: 'REACT', reaction: 'counter' }); // imp counters
    expect(e.view().prompt?.answer).toBe('RESOLVE_ATTACK');
    e.apply({ type: 'RESOLVE_ATTACK', damageRoll: app(4), counterDamageRoll: app(1) });
    expect([who(e, 'ally').health, who(e, 'foe').health, who(e, 'imp').health, who(e, 'far').health, who(e, 'hero').health]).toEqual([6, 10, 6, 10, 9]);
    const stiff = zoned({ meleeBlastDodgeable: false });
    stiff.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: [], kind: 'melee', blast: true, zone: 'hall' });
    stiff.apply({ type: 'REACT', reaction: 'none' });
    expect(() => stiff.apply({ type: 'REACT', reaction: 'dodge', roll: app(1) })).toThrow('A melee blast cannot miss, not even by a dodge, in this campaign (R-F19).');
  });

  it('only one target of a blast may counter', () => {
    const e = zoned();
    e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: [], kind: 'melee', blast: true, zone: 'hall' });
    e.apply({ type: 'REACT', reaction: 'none' });
    e.apply({ type: 'REACT', reaction: 'counter' });
    expect(e.view().prompt?.choices.map((c) => c.id)).not.toContain('counter');
    expect(() => e.apply({ type: 'REACT', reaction: 'counter' })).toThrow('Foe has already countered: an attack with several targets can be countered by one of them.');
  });

  it('a ranged blast on the attacker\'s own zone hits the attacker too; a miss deviates to a numbered neighbouring zone', () => {
    const e = zoned();
    const own = e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: [], kind: 'ranged', blast: true, zone: 'hall' });
    expect(texts(own)).toContain('Hero is caught in their own blast.');
    e.apply({ type: 'OVERRIDE', field: 'cancelAttack', note: '' });
    const miss = zoned();
    const event = { type: 'ATTACK', attackerId: 'hero', targetIds: [], kind: 'ranged', blast: true, zone: 'gate', range: 'beyondHalf', neighbourZones: ['hall', 'yard'] };
    expect(factionsEncounter.rollsFor!(miss.snapshot, event).map((r) => r.notation)).toEqual(['1d20', '1d2']);
    const lines = miss.apply({ ...event, attackRoll: app(18), deviationRoll: app(2) });
    expect(texts(lines)).toContain('The blast deviates: d2 [2] → yard, hitting Far.');
    expect(miss.view().prompt?.subjectId).toBe('far');
  });
});

describe('health and death (§3.4 steps 11–12, R-F20)', () => {
  const hit = (target: Record<string, number>, faces: number, options: Record<string, string> = {}) => {
    const e = fight([seed('hero', 'party', { weaponDie: 12 }), seed('foe', 'gm', target), seed('other', 'gm')], options);
    e.apply(melee('hero', 'foe'));
    e.apply({ type: 'REACT', reaction: 'none' });
    const lines = e.apply(damage(faces));
    return { e, lines, foe: who(e, 'foe') };
  };

  it('Murdham: losing half or more of current health in one hit incapacitates; less does not', () => {
    expect(hit({ health: 8, str: 8, healthMax: 8 }, 3).foe).toMatchObject({ health: 5, incapacitated: false });
    const { foe, lines } = hit({ health: 8, str: 8, healthMax: 8 }, 4);
    expect(foe).toMatchObject({ health: 4, incapacitated: true, dying: false });
    expect(texts(lines)).toContain('Hero hits Foe: 4 damage. Foe 8 → 4 health: lost half or more of 8 in one hit, incapacitated.');
    expect(lines.find((l) => l.text.startsWith('Hero hits'))!.rulings).toEqual(['R-F20']);
  });

  it('Murdham: losing all health means dying; damage of at least maximum health kills outright', () => {
    expect(hit({ health: 3, str: 10, healthMax: 10 }, 5).foe).toMatchObject({ health: 0, incapacitated: true, dying: true, dead: false });
    const { foe, e } = hit({ health: 10, str: 10, healthMax: 10 }, 10);
    expect(foe).toMatchObject({ dead: true });
    expect(e.view().order.find((c) => c.id === 'foe')).toMatchObject({ status: 'removed', removedReason: 'dead' });
  });

  it('plain HP: incapacitated only at 0 (R-F20 alternative)', () => {
    expect(hit({ health: 8, str: 8, healthMax: 8 }, 6, { healthModel: 'hpZeroIncapacitates' }).foe).toMatchObject({ health: 2, incapacitated: false });
    expect(hit({ health: 8, str: 8, healthMax: 8 }, 12, { healthModel: 'hpZeroIncapacitates' }).foe).toMatchObject({ health: 0, incapacitated: true, dead: false });
  });

  it('an incapacitated character cannot act or react; a nearby enemy may deliver a final blow, with no reaction', () => {
    const { e } = hit({ health: 8, str: 8, healthMax: 8 }, 4);
    expect(() => e.apply({ type: 'FINAL_BLOW', attackerId: 'hero', targetId: 'other' })).toThrow('Hero has already taken a main action this turn. A final blow is a main action.');
    e.apply({ type: 'END_TURN' });
    expect(() => e.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe' })).toThrow('Foe is incapacitated and cannot act.');
    e.apply({ type: 'PASS' }); // round 1 ends; the enemies are down to 1 of 2: morale
    e.apply({ type: 'MORALE_ROLL', roll: app(5) });
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'hero' });
    expect(() => e.apply({ type: 'FINAL_BLOW', attackerId: 'hero', targetId: 'other' })).toThrow('Other is not incapacitated: a final blow needs a helpless target.');
    const lines = e.apply({ type: 'FINAL_BLOW', attackerId: 'hero', targetId: 'foe' });
    expect(texts(lines)[0]).toBe('Hero delivers a final blow: Foe, helpless, is killed. No reaction is possible.');
    expect(who(e, 'foe').dead).toBe(true);
  });

  it('GM damage goes through the same health model, and healing lifts dying', () => {
    const e = fight();
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'foe', amount: 10, source: 'falls into the pit' });
    expect(who(e, 'foe').dead).toBe(true);
    const heal = fight([seed('hero', 'party'), seed('ally', 'party', { health: 2 }), seed('foe', 'gm')]);
    heal.apply({ type: 'APPLY_DAMAGE', targetId: 'ally', amount: 2, source: 'poison' });
    expect(who(heal, 'ally')).toMatchObject({ dying: true, incapacitated: true });
    heal.apply({ type: 'HEAL', targetId: 'ally', amount: 3, source: 'healing draught' });
    expect(who(heal, 'ally')).toMatchObject({ health: 3, dying: false });
  });
});

describe('non-lethal attacks (§3.4 step 10)', () => {
  it('a disarmed character cannot attack with the weapon until it picks it up (a bonus action)', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { str: 3 })]);
    e.apply(melee('hero', 'foe', { effect: 'disarm' }));
    e.apply({ type: 'REACT', reaction: 'none' });
    e.apply({ type: 'RESOLVE_ATTACK', saveRoll: app(10) });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe' });
    expect(() => e.apply(melee('foe', 'hero'))).toThrow('Foe has lost their weapon: pick it up (a bonus action) or fight unarmed.');
    e.apply({ type: 'BONUS_ACTION', kind: 'pickUp', item: 'weapon' });
    expect(() => e.apply(melee('foe', 'hero'))).not.toThrow();
  });

  it('the grabber drags the held along, keeps hold while attacking them, lets go doing anything else, and may shove', () => {
    const grab = () => {
      const e = fight([seed('hero', 'party', { str: 14 }), seed('foe', 'gm', { str: 5 }), seed('imp', 'gm')]);
      e.apply(melee('hero', 'foe', { effect: 'grapple' }));
      e.apply({ type: 'REACT', reaction: 'none' });
      e.apply({ type: 'RESOLVE_ATTACK', saveRoll: app(12) });
      return e;
    };
    const e = grab();
    expect(e.view().allowed).not.toContain('SHOVE'); // the main action is spent
    const move = e.apply({ type: 'MOVE_ZONE', to: 'bridge' });
    expect(texts(move)[0]).toBe('Hero moves to bridge, dragging Foe along.');
    expect([who(e, 'foe').zone, who(e, 'foe').grabbedBy]).toEqual(['bridge', 'hero']);
    expect(e.view().order.find((c) => c.id === 'hero')!.tags).toContain('holding Foe');
    const lets = e.apply({ type: 'BONUS_ACTION', kind: 'speak' });
    expect(texts(lets)[0]).toBe('Hero lets go of Foe.');
    // Round 2: shove the one held.
    const s = grab();
    s.apply({ type: 'END_TURN' });
    s.apply({ type: 'PASS' });
    s.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    s.apply({ type: 'SELECT_CHARACTER', combatantId: 'hero' });
    const shove = s.apply({ type: 'SHOVE', to: 'river', hazard: 'the fast water' });
    expect(texts(shove)[0]).toBe('Hero shoves Foe free, half a zone away into river and into the fast water.');
    expect(who(s, 'foe').grabbedBy).toBeNull();
  });
});

describe('gear breaking in the fight (§3.4 step 8, R-F18, R-F18b)', () => {
  it('R-F18 a damaged weapon that rolls a 1 is destroyed after the attack lands; an improvised weapon breaks the same way', () => {
    const e = fight([seed('hero', 'party', { weaponDamaged: true }), seed('foe', 'gm')]);
    e.apply(melee('hero', 'foe'));
    e.apply({ type: 'REACT', reaction: 'none' });
    const lines = e.apply(damage(1));
    expect(texts(lines).slice(-1)[0]).toBe("Hero's damaged weapon is destroyed: it rolled a 1 on the damage die.");
    expect([who(e, 'foe').health, who(e, 'hero').gear.weapon]).toEqual([9, 'destroyed']);
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'PASS' });
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'hero' });
    expect(() => e.apply(melee('hero', 'foe'))).toThrow("Hero's weapon was destroyed: attack unarmed or with an improvised weapon.");
    expect(() => e.apply(melee('hero', 'foe', { weapon: 'improvised' }))).toThrow('An improvised weapon works as a simple hand or great weapon: give its damage die.');
    e.apply(melee('hero', 'foe', { weapon: 'improvised', die: 6 }));
    e.apply({ type: 'REACT', reaction: 'none' });
    expect(texts(e.apply(damage(1)))).toContain("Hero's improvised weapon breaks on a 1 (handled as already damaged).");
    const intact = fight();
    intact.apply(melee('hero', 'foe'));
    intact.apply({ type: 'REACT', reaction: 'none' });
    intact.apply(damage(1));
    expect(who(intact, 'hero').gear.weapon).toBe('intact');
  });

  it('R-F18b a hit of 8 or more before armour destroys a damaged shield first, else damaged armour; the alternative destroys both', () => {
    const heavy = (target: Record<string, number | boolean>, face: number, options: Record<string, string> = {}) => {
      const e = fight([seed('hero', 'party', { weaponDie: 10 }), seed('foe', 'gm', { health: 20, str: 20, healthMax: 20, ...target })], options);
      e.apply(melee('hero', 'foe'));
      e.apply({ type: 'REACT', reaction: 'none' });
      return { lines: e.apply(damage(face)), gear: who(e, 'foe').gear };
    };
    const both = { armour: 3, armourDamaged: true, hasShield: true, shieldDamaged: true };
    const { lines, gear } = heavy(both, 8);
    expect(texts(lines)).toContain("Foe's damaged shield is destroyed: a hit of 8 before armour.");
    expect(gear).toEqual({ weapon: 'intact', shield: 'destroyed', armour: 'damaged' });
    expect(heavy(both, 7).gear.shield).toBe('damaged');
    expect(heavy({ armour: 3, armourDamaged: true }, 9).gear.armour).toBe('destroyed');
    expect(heavy({ armour: 3, armourDamaged: false }, 9).gear.armour).toBe('intact');
    expect(heavy(both, 8, { heavyHitDestroys: 'shieldAndArmour' }).gear).toMatchObject({ shield: 'destroyed', armour: 'destroyed' });
  });
});

describe('morale (§3.2 rule 7, R-F7, R-F8, R-F8b, R-F9)', () => {
  /** Party of one against four bandits; the party member downs `downed` bandits, then the round ends. */
  function bandits(downed: number, options: Record<string, string | boolean> = {}, extra: Record<string, Record<string, number | boolean>> = {}) {
    const gm = ['b1', 'b2', 'b3', 'b4'].map((id) => seed(id, 'gm', { wit: 10, ...extra[id] }));
    const e = fight([seed('hero', 'party', { wit: 10, ...extra['hero'] }), ...gm], options);
    for (let i = 0; i < downed; i += 1) e.apply({ type: 'APPLY_DAMAGE', targetId: gm[i]!.id, amount: 10, source: 'the hero' });
    e.apply({ type: 'END_TURN' });
    while (e.view().prompt?.answer === 'SELECT_CHARACTER') e.apply({ type: 'PASS' });
    return e;
  }

  it('R-F8 a group checks once it is down to half its starting number or less: 4 → 2', () => {
    expect(bandits(1).view().prompt?.answer).toBe('CHOOSE_FIRST_FACTION'); // 3 of 4: no check, round 2
    const e = bandits(2);
    const prompt = e.view().prompt!;
    expect([prompt.answer, prompt.text]).toEqual(['MORALE_ROLL', 'Morale: Enemies (2 of 4 left) must make a group WIT save. One d20; each holds on a roll of their WIT or less: B3 (WIT 10), B4 (WIT 10).']);
    expect(e.view().allowed).toEqual(['MORALE_ROLL', 'OVERRIDE']);
    expect(() => e.apply({ type: 'CHASE', fleeingIds: ['b3'], edge: 'fleeingFaster' })).toThrow('Roll the morale check for Enemies (2 of 4 left) first.');
    e.apply({ type: 'OVERRIDE', field: 'skipMorale', note: 'they are cornered' });
    expect([e.view().round, e.view().prompt?.answer]).toEqual([2, 'CHOOSE_FIRST_FACTION']);
  });

  it('the morale phase asks one question at a time and names its rulings (R-F7, R-F8, R-F9)', () => {
    const e = bandits(2, {}, { b3: { wit: 5 }, b4: { wit: 5 } });
    const opening = ctx(e).log.find((l) => l.text.startsWith('Morale phase:'))!;
    expect(opening).toMatchObject({ text: 'Morale phase: Enemies (2 of 4 left) must make a group WIT save.', rulings: ['R-F7', 'R-F8'] });
    expect(e.view().counters).toContainEqual({ key: 'phase', label: 'Phase', value: 'morale' });
    e.apply({ type: 'MORALE_ROLL', roll: app(9) });
    expect(e.view().prompt).toMatchObject({ kind: 'moraleOutcome', subjectId: 'b3', text: 'B3 failed morale: surrender or retreat? (1 more to decide after this one.)', choices: [{ id: 'surrender' }, { id: 'retreat' }] });
    expect(e.view().order.find((c) => c.id === 'b3')!.tags).toContain('morale failed');
    e.apply({ type: 'MORALE_OUTCOME', outcome: 'surrender' });
    expect(e.view().prompt).toMatchObject({ kind: 'moraleOutcome', subjectId: 'b4', text: 'B4 failed morale: surrender or retreat?' });
    e.apply({ type: 'MORALE_OUTCOME', outcome: 'surrender' });
    expect(e.view().order.find((c) => c.id === 'b3')!.tags).toEqual(expect.arrayContaining(['surrendered', 'morale failed']));
  });

  it('R-F8 one d20 against each member\'s WIT: passers are immune for the stretch, those who fail surrender or retreat', () => {
    const e = bandits(2, {}, { b3: { wit: 12 }, b4: { wit: 8 } });
    const lines = e.apply({ type: 'MORALE_ROLL', roll: app(10) });
    expect(texts(lines)[0]).toBe('Morale, Enemies (2 of 4 left): group WIT save d20 [10]: B3 (WIT 12) holds, immune until the stretch ends, B4 (WIT 8) fails. Those who fail must surrender or retreat.');
    expect(lines[0]!.rulings).toEqual(['R-F7', 'R-F8']);
    expect(e.view().prompt).toMatchObject({ answer: 'MORALE_OUTCOME', subjectId: 'b4' });
    const outcome = e.apply({ type: 'MORALE_OUTCOME', outcome: 'retreat' });
    expect(outcome[0]).toMatchObject({ text: 'B4 retreats from the fight after failing morale.', rulings: ['R-F8', 'R-F9'] });
    expect([who(e, 'b3').moraleImmune, who(e, 'b4').retreated, e.view().round]).toEqual([true, true, 2]);
  });

  it('a group checks only once; the fear-immune are exempt; R-F7 the NPC-only house rule leaves PCs out', () => {
    const e = bandits(2, {}, { b3: { fearImmune: true } });
    expect(e.view().prompt?.text).toBe('Morale: Enemies (2 of 4 left) must make a WIT save. One d20; B4 holds on 10 or less.');
    e.apply({ type: 'MORALE_ROLL', roll: app(1) });
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'hero' });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'b4', amount: 10, source: '' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'PASS' });
    expect(e.view().prompt?.answer).toBe('CHOOSE_FIRST_FACTION'); // no second check
    // A lone PC checks at half health or less; with NPC-only morale it does not.
    const lone = (pcMorale: boolean) => {
      const f = fight([seed('hero', 'party', { health: 10, str: 10, healthMax: 10 }), seed('foe', 'gm'), seed('imp', 'gm')], { pcMorale });
      f.apply({ type: 'END_TURN' });
      f.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe' });
      f.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 4, source: 'club', byId: 'foe' });
      f.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 1, source: 'club', byId: 'foe' });
      f.apply({ type: 'END_TURN' });
      f.apply({ type: 'PASS' });
      return f;
    };
    expect(lone(true).view().prompt?.text).toBe('Morale: Hero, fighting alone at 5/10 health must make a WIT save. One d20; Hero holds on 10 or less.');
    const npcOnly = lone(false);
    expect(npcOnly.view().prompt?.answer).toBe('CHOOSE_FIRST_FACTION');
    expect(ctx(npcOnly).log.some((l) => l.text.startsWith('Morale: Hero, fighting alone at 5/10 health must check, but nobody there is subject to morale'))).toBe(true);
  });

  it('R-F8b "alone" is a group that began with one member; the alternative adds the last one standing', () => {
    const lastOne = (loneFighter: string) => {
      const e = fight([seed('hero', 'party'), seed('ally', 'party', { health: 10 }), seed('foe', 'gm'), seed('imp', 'gm')], { loneFighter });
      e.apply({ type: 'APPLY_DAMAGE', targetId: 'ally', amount: 10, source: '' }); // party 1 of 2: group check
      e.apply({ type: 'END_TURN' });
      e.apply({ type: 'PASS' });
      e.apply({ type: 'MORALE_ROLL', roll: app(2) }); // the hero holds
      e.apply({ type: 'OVERRIDE', targetId: 'hero', field: 'moraleImmune', value: false, note: 'new stretch' });
      e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'gm' });
      e.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe' });
      e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 4, source: '', byId: 'foe' });
      e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 2, source: '', byId: 'foe' });
      e.apply({ type: 'END_TURN' });
      e.apply({ type: 'PASS' });
      e.apply({ type: 'PASS' });
      return e.view().prompt?.answer;
    };
    expect(lastOne('startedAlone')).toBe('CHOOSE_FIRST_FACTION');
    expect(lastOne('lastStanding')).toBe('MORALE_ROLL');
  });

  it('R-F9 a surrendered character harmed by an enemy may fight again', () => {
    const e = fight([seed('hero', 'party', { health: 20, str: 20, healthMax: 20 }), seed('ally', 'party'), seed('foe', 'gm')]);
    e.apply({ type: 'SURRENDER' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe' });
    e.apply(melee('foe', 'hero'));
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['none', 'guard:ally']);
    expect(() => e.apply({ type: 'REACT', reaction: 'dodge', roll: app(1) })).toThrow('Hero cannot act and cannot react.');
    e.apply({ type: 'REACT', reaction: 'none' });
    const hit = e.apply(damage(2));
    expect(texts(hit)).toContain('Foe hits Hero: 2 damage. Hero 20 → 18 health; harmed while surrendered, may fight on.');
    expect(who(e, 'hero')).toMatchObject({ surrendered: false, moraleFailed: false });
  });
});

describe('the end of the fight and what it leaves (R-F10, §3.6, R-F21, R-F22)', () => {
  const pc = (id: string, sheet: Record<string, number | boolean> = {}) => seed(id, 'party', sheet, { characterId: `char-${id}` });

  it('R-F10 ends on its own when one faction is left, asks for durability of what PCs used, then carries their state', () => {
    const e = fight([pc('hero', { weaponDamaged: false, armour: 2 }), pc('idle'), seed('foe', 'gm', { health: 3, str: 3, healthMax: 3 })]);
    e.apply(melee('hero', 'foe'));
    e.apply({ type: 'REACT', reaction: 'none' });
    e.apply(damage(6));
    // The active character finishes the turn; the end of the fight is checked when the next go comes up.
    const lines = e.apply({ type: 'END_TURN' });
    expect(texts(lines)).toEqual(expect.arrayContaining([
      'The fight is over: Party is the only faction still in the fight.',
      "After the fight: a durability roll for Hero's weapon (used at least once).",
    ]));
    expect(e.view()).toMatchObject({ phase: 'running', prompt: { answer: 'DURABILITY_RESULT', subjectId: 'hero' } });
    expect(factionsEncounter.consequences!(e.snapshot).carry).toBeNull();
    e.apply({ type: 'DURABILITY_RESULT', result: 'damaged' });
    expect(e.view().phase).toBe('ended');
    const result = factionsEncounter.consequences!(e.snapshot);
    expect(result.injuries).toEqual([{ key: 'hero.weapon', characterId: 'char-hero', name: 'Weapon damaged', category: 'gear', data: { kind: 'gear', item: 'weapon', state: 'damaged' } }]);
    expect(result.carry).toEqual([
      { characterId: 'char-hero', state: { health: 10, incapacitated: false, dying: false, moraleImmune: false, moraleFailed: false, gear: { weapon: 'damaged', shield: 'none', armour: 'intact' } } },
      { characterId: 'char-idle', state: { health: 10, incapacitated: false, dying: false, moraleImmune: false, moraleFailed: false, gear: { weapon: 'intact', shield: 'none', armour: 'none' } } },
    ]);
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('This encounter has ended.');
  });

  it('R-F21 armour and shields count as used when their wearer was attacked; R-F22 a damaged item that fails again stays damaged', () => {
    const run = (damagedFailsAgain: string) => {
      const e = fight([seed('foe', 'gm'), pc('hero', { armour: 1, armourDamaged: true, hasShield: true })], { damagedFailsAgain }, 'foe');
      e.apply(melee('foe', 'hero'));
      e.apply({ type: 'REACT', reaction: 'none' });
      e.apply(damage(1));
      e.apply({ type: 'END_TURN' });
      e.apply({ type: 'END_COMBAT', outcome: 'the foe flees' });
      const asked = [] as string[];
      while (e.view().prompt?.answer === 'DURABILITY_RESULT') {
        asked.push(`${e.view().prompt!.subjectId}.${durabilityDetailsOf(e.view().prompt!)!.item}`);
        e.apply({ type: 'DURABILITY_RESULT', result: 'damaged' });
      }
      return { e, asked, gear: who(e, 'hero').gear, log: texts(ctx(e).log) };
    };
    const stays = run('staysDamaged');
    // "All weapons and armour used at least once": the party's first, then the NPCs' (the foe's weapon).
    expect(stays.asked).toEqual(['hero.shield', 'hero.armour', 'foe.weapon']);
    expect(stays.gear).toMatchObject({ shield: 'damaged', armour: 'damaged' });
    expect(stays.log).toContain("Hero's armour fails again: it stays damaged.");
    expect(run('destroyed').gear.armour).toBe('destroyed');
  });

  it('NPC gear is tracked in the fight and rolls durability after it, but only PC gear is written to the campaign', () => {
    const e = fight([pc('hero'), seed('foe', 'gm', { armour: 1, weaponDamaged: true }), seed('gone', 'gm', { armour: 1 })], {}, 'hero');
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'gone', reason: 'runs off the map' });
    e.apply(melee('hero', 'foe'));
    e.apply({ type: 'REACT', reaction: 'counter' });
    e.apply({ type: 'RESOLVE_ATTACK', damageRoll: app(2), counterDamageRoll: app(1) });
    // The foe's damaged weapon rolled a 1 on its counter: destroyed in the fight (R-F18), NPC or not.
    expect(who(e, 'foe').gear.weapon).toBe('destroyed');
    expect(e.view().order.find((c) => c.id === 'foe')!.tags).toContain('weapon destroyed');
    e.apply({ type: 'END_COMBAT', outcome: 'the foe yields' });
    expect(texts(ctx(e).log)).toContain("After the fight: a durability roll for Hero's weapon, Foe's armour (used at least once).");
    expect(e.view().prompt).toMatchObject({ answer: 'DURABILITY_RESULT', subjectId: 'hero' });
    e.apply({ type: 'DURABILITY_RESULT', result: 'ok' });
    expect(e.view().prompt).toMatchObject({ answer: 'DURABILITY_RESULT', subjectId: 'foe', details: { item: 'armour', state: 'intact' } });
    expect(texts(e.apply({ type: 'DURABILITY_RESULT', result: 'damaged' }))).toEqual(["Foe's armour fails its durability roll: damaged."]);
    expect(e.view().phase).toBe('ended');
    expect(who(e, 'foe').gear).toMatchObject({ weapon: 'destroyed', armour: 'damaged' });
    const result = factionsEncounter.consequences!(e.snapshot);
    expect(result.injuries).toEqual([]);
    expect(result.carry!.map((c) => c.characterId)).toEqual(['char-hero']);
  });

  it('carries condition and gear back in from the campaign, the worse of the stored state and gear records', () => {
    const carried = factionsEncounter.carriedIn!({ health: 4, dying: false, moraleImmune: true, gear: { weapon: 'damaged', armour: 'intact' } }, [{ kind: 'gear', item: 'armour', state: 'destroyed' }]);
    expect(carried).toEqual({ health: 4, dying: false, moraleImmune: true, gear: { weapon: 'damaged', armour: 'destroyed' } });
    const e = fight([{ ...pc('hero', { armour: 2 }), carried }, seed('foe', 'gm')]);
    expect(who(e, 'hero')).toMatchObject({ health: 4, moraleImmune: true, gear: { weapon: 'damaged', armour: 'destroyed', shield: 'none' } });
    expect(rowDetails(e, e.view().order[0]!.id).armour).toBe(0);
    // Only new harm to gear is a record of this encounter.
    expect(factionsEncounter.consequences!(e.snapshot).injuries).toEqual([]);
  });

  it('a long chase: the group AGI save, or no save when one side is faster', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { agi: 14 }), seed('imp', 'gm', { agi: 6 })]);
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'CHASE', fleeingIds: ['foe', 'imp'], edge: 'none' })).toEqual([{ path: ['roll'], label: 'Chase: group AGI save', notation: '1d20', count: 1, sides: 20 }]);
    const lines = e.apply({ type: 'CHASE', fleeingIds: ['foe', 'imp'], edge: 'none', roll: app(9) });
    expect(texts(lines)[0]).toBe('Chase: group AGI save d20 [9]: Foe (AGI 14) escapes, Imp (AGI 6) is caught.');
    expect(texts(e.apply({ type: 'CHASE', fleeingIds: ['imp'], edge: 'pursuersFaster' }))[0]).toBe('Chase: Imp cannot escape: the pursuers are faster or last longer.');
  });
});

describe('the runner\'s view', () => {
  it('shows whose faction is up, the pass streak, who acted, and the statuses', () => {
    const e = fight([seed('hero', 'party'), seed('ally', 'party'), seed('foe', 'gm'), seed('imp', 'gm')]);
    e.apply({ type: 'SET_ZONE', combatantId: 'hero', zone: 'hall' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'PASS' });
    const view = e.view();
    expect(view.counters).toEqual([
      { key: 'phase', label: 'Phase', value: 'round' },
      { key: 'faction', label: 'Faction up', value: 'Party' },
      { key: 'passes', label: 'Passes in a row', value: '1 / 2' },
      { key: 'initiative', label: 'Initiative', value: 'Party' },
    ]);
    expect(view.prompt).toMatchObject({ answer: 'SELECT_CHARACTER', choices: [{ id: 'ally', label: 'Ally' }, { id: 'pass', label: 'Pass' }] });
    expect(view.order.map((c) => [c.name, c.status])).toEqual([['Hero', 'acted'], ['Ally', 'waiting'], ['Foe', 'waiting'], ['Imp', 'waiting']]);
    expect(view.order[0]!.tags).toContain('zone hall');
    expect(view.allowed).toEqual(expect.arrayContaining(['SELECT_CHARACTER', 'PASS', 'APPLY_DAMAGE', 'END_COMBAT']));
  });
});

describe('optional rules as campaign options', () => {
  it('turns on fast and slow activations and the chaos of combat from the campaign options', () => {
    const e = EncounterEngine.create(factionsEncounter, { options: { ...defaultOptions(factionsOptions), fastSlow: true, chaosOfCombat: true }, carried: {} });
    const ctx = e.snapshot.context as { fastSlow: boolean; chaos: boolean };
    expect([ctx.fastSlow, ctx.chaos]).toEqual([true, true]);
    const plain = EncounterEngine.create(factionsEncounter, { options: defaultOptions(factionsOptions), carried: {} });
    expect((plain.snapshot.context as { fastSlow: boolean }).fastSlow).toBe(false);
  });
});
