// Issue 27: the rules review's deviations, each held to the source line it quotes
// (sources/cairn-errant-bdp-combat.txt), through the event-sourced kernel.
import { describe, expect, it } from 'vitest';
import { cairnErrantEncounter } from './encounter.ts';
import { cairnErrantActionForms } from './forms.ts';
import { app, ctx, fight, intend, lock, seed, texts, who } from './testing.ts';

describe('"All improvised weapons break after 1 attack."', () => {
  const brawl = () => {
    const e = fight([seed('bram', 'party', { hpMax: 10, hp: 10, dex: 12 }), seed('orc', 'enemies', { weaponDie: 6, hpMax: 10, hp: 10 })]);
    intend(e, 'bram', 'melee', 'orc', { weapon: 'improvised', improvisedSize: 8 });
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    return e;
  };

  it('own attack first: the chair breaks, so the same round\'s fight-back is unarmed (d4)', () => {
    const e = brawl();
    e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(3) }); // passes: Bram strikes before the orc
    const hit = e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(5) });
    expect(hit[0]!.text).toContain('Bram d8 [5] → 5, the improvised weapon breaks.');
    e.apply({ type: 'DEFENSE', defence: 'fightBack', attackerId: 'orc' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(2) });
    expect(() => e.apply({ type: 'FIGHT_BACK', defenderId: 'bram', roll: app(7) })).toThrow('7 is not a face of the d4');
    const back = e.apply({ type: 'FIGHT_BACK', defenderId: 'bram', roll: app(3) });
    expect(back[0]!.text).toContain('Bram fights back: d4 [3] → 3');
  });

  it('fight-back first: the chair breaks on the fight-back, so the own attack after it is unarmed (d4)', () => {
    const e = brawl();
    e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(15) }); // fails: the orc strikes first
    e.apply({ type: 'DEFENSE', defence: 'fightBack', attackerId: 'orc' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(2) });
    const back = e.apply({ type: 'FIGHT_BACK', defenderId: 'bram', roll: app(7) });
    expect(back[0]!.text).toContain("Bram fights back: d8 [7] → 7 − Orc's Armor 0 = 7, the improvised weapon breaks;");
    expect(() => e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(7) })).toThrow('7 is not a face of the d4');
    const hit = e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(4) });
    expect(hit[0]!.text).toContain('Bram d4 [4] → 4 (the improvised weapon is already broken: unarmed d4)');
  });

  it('a new round brings a new improvised weapon', () => {
    const e = brawl();
    e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(3) });
    e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(5) });
    expect(ctx(e).brokenImprovised).toEqual(['bram']);
    e.apply({ type: 'DEFENSE', defence: 'none' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(2) });
    expect(ctx(e).round).toBe(2);
    expect(ctx(e).brokenImprovised).toEqual([]);
    expect(who(e, 'bram').hp).toBe(8);
  });
});

describe('"Before damage is rolled, a Player Character under attack has 4 options" / "a character with a full inventory (10 slots) is overburdened to a degree that they are unable to defend themselves"', () => {
  const atNineSlots = () => {
    const e = fight([seed('bram', 'party', { hpMax: 6, hp: 6, gearSlots: 9 }), seed('orc', 'enemies', { weaponDie: 8 })]);
    intend(e, 'bram', 'spell');
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    return e;
  };

  it('a Block at 9 slots is judged before its own Fatigue fills slot 10: the blocked blow still goes to HP', () => {
    const e = atNineSlots();
    expect(e.view().prompt).toMatchObject({ kind: 'defence', subjectId: 'bram' });
    e.apply({ type: 'DEFENSE', defence: 'block' });
    expect(who(e, 'bram').fatigue).toBe(1); // 10/10 slots now: overburdened for the next attack, not this one
    const hit = e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(3) });
    expect(hit[0]!.text).not.toContain('straight to STR');
    expect(who(e, 'bram')).toMatchObject({ hp: 3, str: 10 });
  });

  it('blocking is never worse than not blocking: the same roll taken without a reaction also goes to HP', () => {
    const e = atNineSlots();
    e.apply({ type: 'DEFENSE', defence: 'none' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(3) });
    expect(who(e, 'bram')).toMatchObject({ hp: 3, str: 10 });
  });

  it('at 10 slots before the attack there is no window, and the blow goes straight to STR', () => {
    const e = fight([seed('bram', 'party', { hpMax: 6, hp: 6, gearSlots: 10 }), seed('orc', 'enemies', { weaponDie: 8 })]);
    intend(e, 'bram', 'spell');
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    expect(e.view().prompt).toMatchObject({ kind: 'strike' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(3) });
    expect(who(e, 'bram')).toMatchObject({ hp: 6, str: 7 });
  });
});

describe('R-C6b on retreats: "Lose ability to move quickly" (hit locations, legs)', () => {
  it('a PC who lost fast movement retreats from a Near foe as a full turn, not a quick one', () => {
    const e = fight([seed('bram', 'party', { dex: 12 }), seed('orc', 'enemies')], { hitLocations: true });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'bram', amount: 2, source: 'falling rocks', attribute: 'str' });
    e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(19) });
    e.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(6), strRoll: app(1) }); // left leg
    e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'near' });
    const declared = intend(e, 'bram', 'retreat');
    expect(ctx(e).intents['bram']!.tier).toBe('full');
    expect(declared[0]!.text).toContain('full turn');
    expect(declared[0]!.rulings).toEqual(['R-C6b']);
  });

  it('with fast movement the same retreat is a quick turn ("can be done as a quick turn")', () => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies')]);
    e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'near' });
    intend(e, 'bram', 'retreat');
    expect(ctx(e).intents['bram']!.tier).toBe('quick');
  });
});

describe('"a successful DEX Save allows one to run away from a dangerous situation, as long as there is a safe place to run to"', () => {
  const retreating = () => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies')]);
    e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'near' });
    intend(e, 'bram', 'retreat');
    intend(e, 'orc', 'other', null, { note: 'roars' });
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(2) });
    return e;
  };

  it('the Retreat form asks whether there is a safe place', () => {
    const retreat = cairnErrantActionForms.find((f) => f.type === 'RETREAT')!;
    expect(retreat.fields.find((f) => f.key === 'safePlace')).toMatchObject({ kind: 'flag', default: true });
  });

  it('with no safe place no save is rolled and the PC does not get away: the action is lost', () => {
    const e = retreating();
    expect(cairnErrantEncounter.rollsFor!(e.snapshot, { type: 'RETREAT', combatantId: 'bram', safePlace: false })).toEqual([]);
    const lines = e.apply({ type: 'RETREAT', combatantId: 'bram', safePlace: false });
    expect(texts(lines)[0]).toBe('Bram has no safe place to run to: the retreat cannot succeed, and the action is lost.');
    expect(who(e, 'bram').out).toBeNull();
  });

  it('with a safe place a passed DEX save gets the PC away', () => {
    const e = retreating();
    e.apply({ type: 'RETREAT', combatantId: 'bram', safePlace: true, roll: app(3) });
    expect(who(e, 'bram').out).toMatchObject({ kind: 'retreated' });
  });
});

describe('the runner\'s row shows every open wound it carries ("A wound occupies a slot in your inventory")', () => {
  it('a Light burns the campaign holds, and Injuries, are tags on the row', () => {
    const burns = { id: 'w1', kind: 'wound', type: 'burns', severity: 'light', attribute: null, source: 'the tavern fire', trainedBack: false };
    const frost = { ...burns, id: 'w2', type: 'frostbite' };
    const frost2 = { ...frost, id: 'w3' };
    const leg = { id: 'i1', kind: 'injury', location: 'rightLeg', name: 'Right leg injury' };
    const e = fight([seed('bram', 'party', {}, { wounds: [burns, frost, frost2], injuries: [leg] }), seed('orc', 'enemies')]);
    const row = e.view().order.find((c) => c.id === 'bram')!;
    expect(row.tags).toEqual(expect.arrayContaining(['Light burns', 'Light frostbite ×2', 'Right leg injury']));
    expect(new Set(row.tags).size).toBe(row.tags.length);
    expect(row.stats!.find((s) => s.label === 'Slots')!.value).toBe('4/10');
  });
});

describe('"Who" declares: "each PC declares their intentions that round. The Warden decides what the enemies will do"', () => {
  it('the Player intent offers the party, the Enemy intent and the telegraph the enemies', () => {
    const field = (type: string) => cairnErrantActionForms.find((f) => f.type === type)!.fields.find((f) => f.key === 'combatantId')!;
    expect(field('DECLARE_INTENT').side).toBe('party');
    expect(field('SET_NPC_INTENT').side).toBe('enemies');
    expect(field('TELEGRAPH').side).toBe('enemies');
  });
});

describe('"Blocking requires a Balanced or Heavy melee weapon, or a shield (ruling out light weapons)."', () => {
  /** Bram holds a d8 weapon, the orc swings a d8 at him. */
  const archer = (sheet: Record<string, string | number | boolean>, blockDodge: 'restrict' | 'graded') => {
    const e = fight([seed('bram', 'party', { hpMax: 10, hp: 10, weaponDie: 8, ...sheet }), seed('orc', 'enemies', { weaponDie: 8 })], { blockDodge });
    intend(e, 'bram', 'ranged', 'orc');
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(15) }); // the orc strikes first
    return e;
  };
  const choices = (e: ReturnType<typeof fight>) => e.view().prompt!.choices.map((c) => c.id);

  it('restrict: a d8 longbow is balanced but no melee weapon, so it cannot block; a d8 sword can', () => {
    const bow = archer({ rangedWeapon: true }, 'restrict');
    expect(choices(bow)).not.toContain('block');
    expect(() => bow.apply({ type: 'DEFENSE', defence: 'block' })).toThrow('Bram needs a shield or a balanced or heavy melee weapon to block.');
    expect(choices(archer({}, 'restrict'))).toContain('block');
    expect(choices(archer({ rangedWeapon: true, shield: true }, 'restrict'))).toContain('block');
  });

  it('graded: blocking with a longbow only impairs ("Blocking without a Balanced/Heavy melee weapon or shield impairs")', () => {
    const bow = archer({ rangedWeapon: true }, 'graded');
    expect(bow.apply({ type: 'DEFENSE', defence: 'block' })[0]!.text).toContain('become impaired');
    expect(() => bow.apply({ type: 'STRIKE', targetId: 'bram', roll: app(5) })).toThrow('5 is not a face of the d4');
    bow.apply({ type: 'STRIKE', targetId: 'bram', roll: app(3) });
    expect(who(bow, 'bram').hp).toBe(7);
  });
});

describe('"Fight back. Choose one attacker and deal your damage against it" — only an attacker Bram can reach (R-C28)', () => {
  /** An archer shoots Bram; the bands (if given) place it. */
  const shot = (bram: Record<string, string | number | boolean> = {}, band: 'close' | 'far' | null = 'far', options: Record<string, string> = {}) => {
    const e = fight([seed('bram', 'party', { hpMax: 10, hp: 10, weaponDie: 8, ...bram }), seed('archer', 'enemies', { weaponDie: 6, hpMax: 6, hp: 6 })], options);
    if (band) e.apply({ type: 'SET_BAND', combatantId: 'archer', band });
    intend(e, 'bram', 'spell');
    intend(e, 'archer', 'ranged', 'bram');
    lock(e);
    return e;
  };
  const choices = (e: ReturnType<typeof fight>) => e.view().prompt!.choices.map((c) => c.id);

  it('a sword cannot deal its damage to an archer shooting from Far: no fight-back is offered, and one sent is refused', () => {
    const e = shot();
    expect(choices(e)).toEqual(['none', 'block', 'dodge']);
    expect(e.view().prompt!.text).toBe('Bram is attacked by Archer: how does Bram react? (Archer out of reach to fight back or parry, R-C28)');
    expect(() => e.apply({ type: 'DEFENSE', defence: 'fightBack', attackerId: 'archer' })).toThrow("Bram cannot reach Archer to fight back: it shoots from Far and Bram's weapon is no ranged weapon (R-C28).");
    expect(who(e, 'bram').fatigue).toBe(0);
  });

  it('with no bands set, a ranged attacker is out of a sword\'s reach too', () => {
    expect(choices(shot({}, null))).not.toContain('fightBack:archer');
  });

  it('an archer Close by the bands, or a PC with a bow of their own, can be fought back', () => {
    expect(choices(shot({}, 'close'))).toContain('fightBack:archer');
    const bow = shot({ rangedWeapon: true });
    expect(choices(bow)).toContain('fightBack:archer');
    bow.apply({ type: 'DEFENSE', defence: 'fightBack', attackerId: 'archer' });
    bow.apply({ type: 'STRIKE', targetId: 'bram', roll: app(2) });
    bow.apply({ type: 'FIGHT_BACK', defenderId: 'bram', roll: app(5) });
    expect(who(bow, 'archer').hp).toBe(1);
  });

  it('the option anyAttacker (the literal reading) offers the archer at Far too', () => {
    expect(choices(shot({}, 'far', { fightBackReach: 'anyAttacker' }))).toContain('fightBack:archer');
  });
});

describe('"Parry. Choose one attacking opponent that you can attack in return" — a melee blow or a shot Bram can reach (R-C28)', () => {
  /** An archer (d6) shoots Bram (a d8 sword, Armor 0); the bands (if given) place it. */
  const shot = (bram: Record<string, string | number | boolean> = {}, band: 'close' | 'far' | null = 'close') => {
    const e = fight([seed('bram', 'party', { hpMax: 10, hp: 10, str: 12, weaponDie: 8, ...bram }), seed('archer', 'enemies', { weaponDie: 6, hpMax: 6, hp: 6, str: 10 })]);
    if (band) e.apply({ type: 'SET_BAND', combatantId: 'archer', band });
    intend(e, 'bram', 'spell');
    intend(e, 'archer', 'ranged', 'bram');
    lock(e);
    return e;
  };
  const choices = (e: ReturnType<typeof fight>) => e.view().prompt!.choices.map((c) => c.id);

  it('an archer Close to Bram can be attacked in return, so it can be parried: the higher roll goes straight to STR', () => {
    const e = shot();
    expect(choices(e)).toContain('parry:archer');
    e.apply({ type: 'DEFENSE', defence: 'parry', attackerId: 'archer' });
    const lines = e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(2, 7) });
    expect(texts(lines).join(' ')).toContain("Parry: Bram 7 beats Archer 2: 7 straight to Archer's STR (after Armor, no save).");
    expect([who(e, 'archer').str, who(e, 'bram').hp]).toEqual([3, 10]);
  });

  it('a PC with a bow of its own can attack an archer at Far in return, so it can parry it', () => {
    expect(choices(shot({ rangedWeapon: true }, 'far'))).toContain('parry:archer');
  });

  it('a sword cannot attack an archer at Far in return: no Parry offered, and one sent is refused', () => {
    const e = shot({}, 'far');
    expect(choices(e)).not.toContain('parry:archer');
    expect(() => e.apply({ type: 'DEFENSE', defence: 'parry', attackerId: 'archer' })).toThrow("Bram cannot reach Archer to parry: it shoots from Far and Bram's weapon is no ranged weapon (R-C28).");
    expect(choices(shot({}, null))).not.toContain('parry:archer');
  });
});

describe('Far "takes one or multiple Move Actions in combat to get here": a melee strike at a Far foe (R-C29)', () => {
  const farOrc = (options: Record<string, string> = {}) => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies')], options);
    e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'far' });
    return e;
  };

  it('by default one move closes in: "Moving close to an enemy before making a melee attack" is a full turn', () => {
    const e = farOrc();
    intend(e, 'bram', 'melee', 'orc');
    expect(ctx(e).intents['bram']).toMatchObject({ tier: 'full', move: 'before', bandNote: 'from Far' });
  });

  it('outOfReach: closing in from Far is "moving two range bands", a full turn of its own, so the strike or gambit is refused', () => {
    const e = farOrc({ farMelee: 'outOfReach' });
    expect(() => intend(e, 'bram', 'melee', 'orc')).toThrow("Orc is Far: closing in takes Bram's whole turn (moving two range bands), so the strike waits for next round (R-C29).");
    expect(() => intend(e, 'bram', 'gambit', 'orc')).toThrow("Orc is Far: closing in takes Bram's whole turn (moving two range bands), so the gambit waits for next round (R-C29).");
    intend(e, 'bram', 'ranged', 'orc');
    e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'near' });
    intend(e, 'bram', 'melee', 'orc');
    expect(ctx(e).intents['bram']).toMatchObject({ action: 'melee', tier: 'full' });
  });
});

describe('Hit locations: "Left arm / Right arm | Disarmament; lose use of arm."', () => {
  /** The orc (quick turn) hits Bram before Bram's enhanced full-turn strike; Bram's STR save fails: the d10 waits. */
  const armHit = (face: number) => {
    const e = fight([seed('bram', 'party', { hpMax: 2, hp: 2, str: 10, weaponDie: 8 }), seed('orc', 'enemies', { weaponDie: 8, hpMax: 12, hp: 12 })], { hitLocations: true });
    intend(e, 'bram', 'melee', 'orc', { move: 'before', position: 'enhanced' });
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    e.apply({ type: 'DEFENSE', defence: 'none' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(5) }); // 2 HP, 3 off STR
    e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(20) });
    const lines = e.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(face) });
    return { e, lines };
  };

  it('an arm hit disarms: Bram\'s own strike later that round is unarmed (a d4, the enhanced d12 cancelled by the impairment)', () => {
    const { e, lines } = armHit(9);
    expect(texts(lines).join(' ')).toContain('disarmed');
    expect(e.view().order.find((c) => c.id === 'bram')!.tags).toContain('disarmed this round: unarmed d4');
    // The full-turn moment: Bram strikes the orc with empty hands.
    expect(() => e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(7) })).toThrow('7 is not a face of the d4');
    const hit = e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(3) });
    expect(hit[0]!.text).toContain('disarmed by the arm hit: unarmed d4');
    expect(who(e, 'orc').hp).toBe(9);
  });

  it('a leg hit does not disarm: the same strike swings the d8 (enhanced and impaired cancel, R-C12)', () => {
    const { e } = armHit(7);
    e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(7) });
    expect(who(e, 'orc').hp).toBe(5);
  });

  it('the next round\'s declaration says what Bram fights with: the disarm lasts the round', () => {
    const { e } = armHit(8);
    e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(3) });
    expect(ctx(e).round).toBe(2);
    expect(ctx(e).disarmed).toEqual([]);
  });
});

describe('"Unarmed/non-lethal attacks still do damage to STR, but failing a Critical Damage Save means the target is knocked unconscious instead."', () => {
  it('the chair breaks on Bram\'s attack; his fight-back is with his fists, so the orc who fails its save is knocked out', () => {
    const e = fight([seed('bram', 'party', { hpMax: 10, hp: 10 }), seed('orc', 'enemies', { weaponDie: 6, hpMax: 6, hp: 6 }), seed('gob', 'enemies')]);
    intend(e, 'bram', 'melee', 'orc', { weapon: 'improvised', improvisedSize: 8 });
    intend(e, 'orc', 'melee', 'bram');
    intend(e, 'gob', 'other', null, { note: 'watches' });
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(3) });
    e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(5) }); // the chair breaks: orc HP 1
    e.apply({ type: 'DEFENSE', defence: 'fightBack', attackerId: 'orc' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(2) });
    e.apply({ type: 'FIGHT_BACK', defenderId: 'bram', roll: app(3) }); // fists: HP 1 → 0, 2 off STR
    const save = e.apply({ type: 'STR_SAVE', combatantId: 'orc', roll: app(20) });
    expect(texts(save).join(' ')).toContain('Orc is knocked unconscious (non-lethal)');
    expect(who(e, 'orc').unconscious).toBe(true);
    expect(e.view().prompt?.kind ?? null).not.toBe('npcCrit');
  });
});

describe('"For determining the priority of Gambits in the initiative order, use the size of your weapon as described in Melee Clashes." (option gambitOrder)', () => {
  const exchange = (options: Record<string, string | boolean>) => {
    const e = fight([seed('bram', 'party', { weaponDie: 6 }), seed('orc', 'enemies', { weaponDie: 10 })], options);
    intend(e, 'bram', 'gambit', 'orc');
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    return e;
  };

  it('by default (the digest) the clash rule off leaves the DEX save to order Bram\'s gambit and the orc\'s blow', () => {
    const e = exchange({});
    expect(ctx(e).clashes).toEqual([]);
    expect(e.view().prompt?.kind).toBe('dexSaves');
  });

  it('always: already Close, Bram\'s fast d6 goes before the orc\'s slow d10, with no DEX save', () => {
    const e = exchange({ gambitOrder: 'always' });
    expect(ctx(e).clashes).toEqual([expect.objectContaining({ first: 'bram', decidedBy: 'length', entering: false })]);
    expect(e.view().prompt?.kind).toBe('gambit');
  });

  it('always, but two plain melee attacks with the clash rule off are not a clash', () => {
    const e = fight([seed('bram', 'party', { weaponDie: 6 }), seed('orc', 'enemies', { weaponDie: 10 })], { gambitOrder: 'always' });
    intend(e, 'bram', 'melee', 'orc');
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    expect(ctx(e).clashes).toEqual([]);
  });
});

describe('Disarmed by an arm hit, then "Blocking requires a Balanced or Heavy melee weapon, or a shield"', () => {
  it('restrict: Bram, disarmed of his d8 sword earlier this round, can no longer block the goblin\'s later blow', () => {
    const e = fight([seed('bram', 'party', { hpMax: 2, hp: 2, str: 12, weaponDie: 8 }), seed('orc', 'enemies', { weaponDie: 8 }), seed('gob', 'enemies', { weaponDie: 6 })], { hitLocations: true, blockDodge: 'restrict' });
    intend(e, 'bram', 'spell');
    intend(e, 'orc', 'melee', 'bram');
    intend(e, 'gob', 'melee', 'bram', { move: 'before' });
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(15) }); // the full tier: Bram's spell after the goblin
    expect(e.view().prompt!.choices.map((c) => c.id)).toContain('block');
    e.apply({ type: 'DEFENSE', defence: 'none' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(5) });
    e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(20) });
    e.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(8) });
    // The full-turn moment: the goblin closes in and strikes.
    expect(e.view().prompt!.choices.map((c) => c.id)).not.toContain('block');
    expect(() => e.apply({ type: 'DEFENSE', defence: 'block' })).toThrow('Bram needs a shield or a balanced or heavy melee weapon to block.');
  });
});

describe('"only the weapon tag/effects of the highest result are used" with "Unarmed/non-lethal attacks" (R-C20)', () => {
  it('the goblin\'s chair broke on its fight-back; tied with the orc, its fists land the blow, and Bram is knocked out', () => {
    const e = fight([seed('bram', 'party', { hpMax: 4, hp: 4, str: 10, weaponDie: 6 }), seed('gob', 'enemies', { canDefend: true, hpMax: 10, hp: 10 }), seed('orc', 'enemies', { weaponDie: 6 })]);
    intend(e, 'bram', 'melee', 'gob');
    intend(e, 'gob', 'melee', 'bram', { weapon: 'improvised', improvisedSize: 8 });
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(3) }); // Bram strikes first
    e.apply({ type: 'DEFENSE', defence: 'fightBack', attackerId: 'bram' }); // the goblin fights back with its chair
    e.apply({ type: 'STRIKE', targetId: 'gob', roll: app(3) });
    e.apply({ type: 'FIGHT_BACK', defenderId: 'gob', roll: app(1) }); // the chair breaks: Bram HP 3
    e.apply({ type: 'DEFENSE', defence: 'none' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(4, 4) }); // goblin fists d4 4, orc d6 4: a tie
    e.apply({ type: 'TIE_BREAK', attackerId: 'gob' });
    const save = e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(20) });
    expect(texts(save).join(' ')).toContain('Bram is knocked unconscious (non-lethal)');
    expect(who(e, 'bram').unconscious).toBe(true);
  });
});
