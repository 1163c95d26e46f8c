// Cairn-Errant's round (RULES.md §4.2): declarations, quick and full tiers, DEX-save buckets, melee clashes, base
// Cairn initiative, the roster during the fight, refusals and event sourcing, through the kernel.
import { describe, expect, it } from 'vitest';
import { EncounterEngine, RuleRefusal, parseEvent } from '../../encounter/kernel.ts';
import type { GmEvent } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { cairnErrantEncounter } from './encounter.ts';
import { cairnErrantOptions } from './options.ts';
import { app, ctx, encounter, fight, finishRound, intend, lock, seed, texts, who } from './testing.ts';

const buckets = (e: EncounterEngine) => ctx(e).moments.map((m) => `${m.tier}:${m.bucket}:${m.ids.join('+')}`);

describe('tiers and buckets (§4.2 steps 2–4)', () => {
  it('classifies each intent as a quick or a full turn, and the GM can confirm another tier', () => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies')]);
    const tier = (action: string, extra: Record<string, unknown> = {}) => {
      intend(e, 'bram', action as never, ['melee', 'gambit', 'ranged'].includes(action) ? 'orc' : null, extra);
      return ctx(e).intents['bram']!.tier;
    };
    expect(tier('melee')).toBe('quick');
    expect(tier('melee', { move: 'before' })).toBe('full');
    expect(tier('gambit', { move: 'after' })).toBe('full');
    expect(tier('ranged')).toBe('quick');
    expect(tier('ranged', { move: 'after' })).toBe('full');
    expect(tier('retreat')).toBe('quick');
    expect(tier('retreat', { fromClose: true })).toBe('full');
    expect(tier('move')).toBe('quick');
    expect(tier('move', { bands: 2 })).toBe('full');
    expect(tier('spell', { fast: true })).toBe('quick');
    expect(tier('spell')).toBe('full');
    const lines = e.apply({ type: 'CONFIRM_TIER', combatantId: 'bram', tier: 'quick' });
    expect(lines[0]!.text).toBe("The GM classifies Bram's intent as a quick turn.");
    expect(ctx(e).intents['bram']).toMatchObject({ tier: 'quick', tierConfirmed: true });
  });

  it('quick turns before full turns; inside a contested tier passers act before the enemies and failers after', () => {
    const e = fight([seed('ana', 'party', { dex: 12 }), seed('bo', 'party', { dex: 8 }), seed('cy', 'party'), seed('orc', 'enemies'), seed('gob', 'enemies')]);
    intend(e, 'ana', 'melee', 'orc');
    intend(e, 'bo', 'ranged', 'gob');
    intend(e, 'cy', 'spell');
    intend(e, 'orc', 'melee', 'ana');
    intend(e, 'gob', 'melee', 'cy', { move: 'before' });
    const locked = lock(e);
    expect(locked[0]!.text).toBe('Intents locked for round 1. DEX saves needed from Ana, Bo, Cy.');
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['ana', 'bo', 'cy']);
    expect(() => e.apply({ type: 'DEX_SAVE', combatantId: 'orc', roll: app(3) })).toThrow('Orc is an enemy: only the players make initiative DEX saves.');
    e.apply({ type: 'DEX_SAVE', combatantId: 'ana', roll: app(12) }); // ≤ 12 passes
    e.apply({ type: 'DEX_SAVE', combatantId: 'bo', roll: app(9) }); // > 8 fails
    expect(() => e.apply({ type: 'DEX_SAVE', combatantId: 'ana', roll: app(3) })).toThrow('Ana has already rolled the DEX save this round.');
    const last = e.apply({ type: 'DEX_SAVE', combatantId: 'cy', roll: app(20) }); // 20 always fails
    expect(buckets(e)).toEqual(['quick:pcPass:ana', 'quick:npc:orc', 'quick:pcFail:bo', 'full:npc:gob', 'full:pcFail:cy']);
    expect(texts(last)).toContain('Order for round 1: 1. quick, PCs who won the DEX save: Ana; 2. quick, enemies: Orc; 3. quick, PCs who lost the DEX save: Bo; 4. full, enemies: Gob; 5. full, PCs who lost the DEX save: Cy.');
    expect(e.view().counters).toEqual([
      { key: 'step', label: 'Step', value: 'Resolve' }, { key: 'moment', label: 'Moment', value: '1 / 5' },
      { key: 'now', label: 'Acting', value: 'quick, PCs who won the DEX save' },
    ]);
    // Each row shows the declared intent with its tier, HP, the attributes, Fatigue and slots.
    const ana = e.view().order.find((c) => c.id === 'ana')!;
    expect(ana.health).toEqual({ label: 'HP', current: 4, max: 4 });
    expect(ana.stats!.map((s) => `${s.label} ${s.value}`)).toEqual(['STR 10/10', 'DEX 12/12', 'WIL 10/10', 'Armor 0', 'Fatigue 0', 'Slots 0/10', 'Turn quick']);
    expect(ana.tags[0]).toBe('quick: attacks Orc');
  });

  it('a 1 always passes the DEX save; a tier with one side only needs no save', () => {
    const e = fight([seed('ana', 'party', { dex: 3 }), seed('orc', 'enemies')]);
    intend(e, 'ana', 'melee', 'orc');
    intend(e, 'orc', 'melee', 'ana', { move: 'before' });
    lock(e);
    expect(e.view().prompt).toMatchObject({ kind: 'strike', subjectId: 'orc' }); // no DEX save: Ana quick, orc full
    expect(buckets(e)).toEqual(['quick:pcPass:ana', 'full:npc:orc']);
    const one = fight([seed('ana', 'party', { dex: 3 }), seed('orc', 'enemies')]);
    intend(one, 'ana', 'other');
    intend(one, 'orc', 'other');
    lock(one);
    one.apply({ type: 'DEX_SAVE', combatantId: 'ana', roll: app(1) });
    expect(buckets(one)).toEqual(['quick:pcPass:ana', 'quick:npc:orc']);
  });

  it('moments with non-attack actions wait for END_TURN; everyone in the current moment is active at once (R-C1, R-C5)', () => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'enemies')]);
    intend(e, 'ana', 'other', null, { note: 'lights the torch' });
    intend(e, 'bo', 'move');
    intend(e, 'orc', 'spell');
    lock(e);
    expect(e.view().order.map((c) => [c.name, c.status, c.slot])).toEqual([['Ana', 'active', 1], ['Bo', 'active', 1], ['Orc', 'waiting', 2]]);
    expect(e.view().turn).toEqual({ actionsLeft: 1, actionsPerTurn: 1 });
    const closed = e.apply({ type: 'END_TURN' });
    expect(closed[0]!.text).toBe('The moment closes: Ana, Bo have acted at the table.');
    expect(e.view().activeId).toBe('orc');
    expect(e.view().turn).toEqual({ actionsLeft: 2, actionsPerTurn: 2 });
    const next = e.apply({ type: 'END_TURN' });
    expect(texts(next)).toContain('Round 2: declare intents.');
    expect(e.view().order.every((c) => c.status === 'unplaced')).toBe(true);
  });

  it('someone downed before their moment loses the action, and a moment of attacks closes by itself', () => {
    const e = fight([seed('ana', 'party', { hp: 1 }), seed('bo', 'party'), seed('orc', 'enemies', { hp: 2 })]);
    intend(e, 'ana', 'melee', 'orc', { move: 'before' });
    intend(e, 'bo', 'spell', null, { fast: true });
    intend(e, 'orc', 'melee', 'ana');
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'bo', roll: app(2) });
    e.apply({ type: 'END_TURN' }); // Bo's fast spell, before the orc
    e.apply({ type: 'DEFENSE', defence: 'none' });
    e.apply({ type: 'STRIKE', targetId: 'ana', roll: app(6) });
    e.apply({ type: 'STR_SAVE', combatantId: 'ana', roll: app(19) });
    const lines = e.apply({ type: 'CRIT_D6', combatantId: 'ana', roll: app(3), hpRoll: app(1) });
    // The orc's moment is settled; Ana's full-turn moment opens and she can no longer act; the round turns over.
    expect(texts(lines).some((t) => t.includes('Ana can no longer act'))).toBe(true);
    expect(e.view().round).toBe(2);
  });
});

describe('range bands (source "Range Bands" and "Retreat")', () => {
  it('with no band set the intent\'s own flags decide; the GM sets a band per combatant, shown on its row', () => {
    const e = fight([seed('mira', 'party'), seed('orc', 'enemies')]);
    intend(e, 'mira', 'retreat');
    expect(ctx(e).intents['mira']).toMatchObject({ tier: 'quick', fromClose: false, bandNote: null });
    const set = e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'near' });
    expect(set[0]!.text).toBe('Orc is Near from the party.');
    expect(e.view().order.find((c) => c.id === 'orc')!.stats).toContainEqual({ label: 'Band', value: 'Near' });
    expect(e.view().order.find((c) => c.id === 'mira')!.stats!.some((s) => s.label === 'Band')).toBe(false);
  });

  it('retreat: one action (quick) from a foe Near or farther, a full turn from a Close one, re-derived when the band changes', () => {
    const e = fight([seed('mira', 'party', { dex: 12 }), seed('orc', 'enemies')]);
    e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'near' });
    intend(e, 'mira', 'retreat');
    expect(ctx(e).intents['mira']).toMatchObject({ tier: 'quick', fromClose: false, bandNote: 'nearest foe Near' });
    expect(() => intend(e, 'mira', 'retreat', null, { fromClose: true })).toThrow('Mira\'s nearest foe is Near by the range bands: this is not a retreat from Close (set the band first if it changed).');
    const closer = e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'close' });
    expect(closer[0]!.text).toBe("Orc is Near → Close from the party. Mira's intent is now a full turn.");
    expect(ctx(e).intents['mira']).toMatchObject({ tier: 'full', fromClose: true, bandNote: 'nearest foe Close' });
    intend(e, 'orc', 'spell');
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'mira', roll: app(3) });
    // Either way the retreat is a DEX save (source "Retreat": as in base Cairn).
    expect(e.rules.rollsFor!(e.snapshot, { type: 'RETREAT', combatantId: 'mira' })[0]!.label).toBe('Mira: DEX save to retreat (d20 ≤ 12)');
    e.apply({ type: 'RETREAT', combatantId: 'mira', roll: app(4) });
    expect(who(e, 'mira').out).toMatchObject({ kind: 'retreated' });
  });

  it('a melee strike at someone not Close closes in first (a full turn, entering Close); afterwards both are Close', () => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies', { hpMax: 8, hp: 8 })]);
    e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'near' });
    const declared = intend(e, 'bram', 'melee', 'orc');
    expect(declared[0]!.text).toBe('Bram declares: closes in and attacks Orc (from Near) — full turn.');
    expect(ctx(e).intents['bram']).toMatchObject({ move: 'before', tier: 'full', declared: { move: 'none', fromClose: null } });
    intend(e, 'orc', 'other', null, { note: 'waits' });
    lock(e);
    e.apply({ type: 'END_TURN' }); // the orc's quick moment
    e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(3) });
    expect([who(e, 'bram').band, who(e, 'orc').band]).toEqual(['close', 'close']);
    // Round 2: already Close, the same strike is a quick turn.
    intend(e, 'bram', 'melee', 'orc');
    expect(ctx(e).intents['bram']).toMatchObject({ move: 'none', tier: 'quick', bandNote: null });
  });

  it('a Distant target is beyond every ranged weapon and out of reach for a strike', () => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies')]);
    e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'distant' });
    expect(() => intend(e, 'bram', 'ranged', 'orc')).toThrow('Orc is Distant: beyond the range of every ranged weapon.');
    expect(() => intend(e, 'bram', 'melee', 'orc')).toThrow('Orc is Distant: too many moves away to strike this round.');
    e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'far' });
    intend(e, 'bram', 'ranged', 'orc');
    expect(ctx(e).intents['bram']!.tier).toBe('quick');
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'orc', reason: 'fled' });
    expect(() => e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'near' })).toThrow('This encounter has ended.');
  });
});

describe('melee clashes (optional rule, R-C2, R-C3)', () => {
  const clash = (ana: Record<string, string | number | boolean>, orc: Record<string, string | number | boolean>, anaIntent: Record<string, unknown> = {}, orcIntent: Record<string, unknown> = {}) => {
    const e = fight([seed('ana', 'party', ana), seed('bo', 'party'), seed('orc', 'enemies', orc), seed('gob', 'enemies')], { meleeClashes: true });
    intend(e, 'ana', 'melee', 'orc', anaIntent);
    intend(e, 'orc', 'melee', 'ana', orcIntent);
    // Bo alone in the quick tier and the goblin alone in the full one: no DEX saves unless the clash ties.
    intend(e, 'bo', 'other');
    intend(e, 'gob', 'spell');
    lock(e);
    return e;
  };

  it('entering Close: the longer weapon strikes first (Reach > slow > balanced > fast)', () => {
    const e = clash({ weaponDie: 8, weaponReach: true }, { weaponDie: 10 }, { move: 'before' });
    expect(ctx(e).clashes).toEqual([expect.objectContaining({ first: 'ana', decidedBy: 'length', entering: true, tier: 'quick' })]);
    // R-C3: the pair strikes in the earlier tier, after the PCs who won and before the enemies; the others keep their buckets.
    expect(buckets(e)).toEqual(['quick:pcPass:bo', 'quick:clash:ana', 'quick:clash:orc', 'full:npc:gob']);
    expect(e.view().aside!.map((a) => a.title)).toContain('Melee clashes (R-C2, R-C3)');
  });

  it('already Close: the order reverses, the fast weapon first', () => {
    const e = clash({ weaponDie: 6 }, { weaponDie: 10 });
    expect(ctx(e).clashes[0]).toMatchObject({ first: 'ana', entering: false });
    const reach = clash({ weaponDie: 8, weaponReach: true }, { weaponDie: 8 });
    expect(ctx(reach).clashes[0]).toMatchObject({ first: 'orc', decidedBy: 'length' });
  });

  it('enhanced strikes before normal, normal before impaired, whatever the weapons', () => {
    const e = clash({ weaponDie: 10 }, { weaponDie: 6 }, { position: 'enhanced' });
    expect(ctx(e).clashes[0]).toMatchObject({ first: 'ana', decidedBy: 'modifier' });
    const failed = clash({ weaponDie: 6 }, { weaponDie: 10, failedCriticalSave: true });
    expect(ctx(failed).clashes[0]).toMatchObject({ first: 'ana', decidedBy: 'modifier' });
  });

  it('a tie falls to the PC\'s DEX save', () => {
    const e = clash({ weaponDie: 8 }, { weaponDie: 8 });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['ana']);
    e.apply({ type: 'DEX_SAVE', combatantId: 'ana', roll: app(18) });
    expect(ctx(e).clashes[0]).toMatchObject({ first: 'orc', decidedBy: 'dex' });
  });

  it('a dual wielder striking with both goes at the slower weapon\'s position', () => {
    const both = clash({ weaponDie: 6, offhandDie: '10' }, { weaponDie: 8 }, { weapon: 'dual' });
    expect(ctx(both).clashes[0]).toMatchObject({ first: 'orc' });
    const quick = clash({ weaponDie: 6, offhandDie: '10' }, { weaponDie: 8 });
    expect(ctx(quick).clashes[0]).toMatchObject({ first: 'ana' });
  });
});

describe('base Cairn initiative (R-C1 option simpleDex)', () => {
  it('one DEX save at the start decides before or after the enemies for the whole fight', () => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'enemies')], { initiativeMode: 'simpleDex' });
    intend(e, 'ana', 'other');
    intend(e, 'bo', 'spell');
    intend(e, 'orc', 'other');
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'ana', roll: app(4) });
    e.apply({ type: 'DEX_SAVE', combatantId: 'bo', roll: app(14) });
    expect(buckets(e)).toEqual(['turn:pcPass:ana', 'turn:npc:orc', 'turn:pcFail:bo']);
    finishRound(e);
    intend(e, 'ana', 'other');
    intend(e, 'bo', 'other');
    intend(e, 'orc', 'other');
    lock(e);
    expect(e.view().prompt).toBeNull();
    expect(buckets(e)).toEqual(['turn:pcPass:ana', 'turn:npc:orc', 'turn:pcFail:bo']);
  });
});

describe('the roster during the fight', () => {
  it('a late arrival may declare during declarations; a removed combatant leaves the fight', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'enemies'), seed('gob', 'enemies')]);
    e.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('cy', 'party') });
    expect(() => lock(e)).toThrow('Ana, Cy have not declared an intent yet.');
    const gone = e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'gob', reason: 'flees' });
    expect(gone[0]!.text).toBe('Gob leaves the fight (flees).');
    expect(e.view().order.find((c) => c.id === 'gob')!.status).toBe('removed');
    expect(() => intend(e, 'orc', 'melee', 'gob' as never)).toThrow('Gob is no longer in the fight.');
  });

  it('ends on END_COMBAT, then refuses everything', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'enemies')]);
    e.apply({ type: 'END_COMBAT', outcome: 'Parley' });
    expect([e.view().phase, e.view().outcome]).toEqual(['ended', 'Parley']);
    // No step, moment or acting side once it has ended: the runner's strip gives the outcome the room.
    expect(e.view().counters).toEqual([]);
    expect(() => e.apply({ type: 'LOCK_INTENTS' })).toThrow('This encounter has ended.');
  });
});

describe('refusals change nothing and say why', () => {
  it('refuses setup mistakes and out-of-step events with a sentence', () => {
    const e = encounter();
    expect(() => e.apply({ type: 'START' })).toThrow('Add at least one party member before starting.');
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('ana', 'party')] });
    expect(() => e.apply({ type: 'START' })).toThrow('Add at least one enemy before starting.');
    expect(() => e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('ana', 'party')] })).toThrow('Ana is already in this encounter.');
    expect(() => e.apply({ type: 'LOCK_INTENTS' })).toThrow('Start the fight first.');
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('orc', 'enemies')] });
    e.apply({ type: 'START' });
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('Declare every intent and lock them first.');
    expect(() => intend(e, 'orc', 'melee', 'orc')).toThrow('Orc is on Orc\'s own side.');
    expect(() => e.apply({ type: 'DECLARE_INTENT', combatantId: 'orc', action: 'other' })).toThrow('Orc is an enemy: the Warden sets its intent (SET_NPC_INTENT).');
    expect(() => intend(e, 'ana', 'melee')).toThrow("Ana's attack needs a target.");
    expect(() => intend(e, 'ana', 'melee', 'orc', { weapon: 'improvised' })).toThrow('Say how big the improvised weapon is: bottle (d6), chair (d8) or table (d10).');
    expect(() => e.apply({ type: 'STRIKE', targetId: 'ana' })).toThrow('Nothing is waiting for that answer now.');
  });

  it('a question blocks everything but its answer and OVERRIDE, which can set it aside (logged)', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'enemies')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'ana', amount: 6, source: 'trap' });
    expect(e.view().allowed).toEqual(['STR_SAVE', 'OVERRIDE']);
    expect(() => intend(e, 'ana', 'other')).toThrow('Ana lost STR: roll the STR save against Critical Damage.');
    expect(() => e.apply({ type: 'END_COMBAT', outcome: '' })).toThrow('Ana lost STR');
    const before = JSON.stringify(e.persisted());
    expect(() => e.apply({ type: 'STR_SAVE', combatantId: 'ana', roll: app(25 as number) })).toThrow('A die face is at most 20.');
    expect(JSON.stringify(e.persisted())).toBe(before);
    const lines = e.apply({ type: 'OVERRIDE', targetId: 'ana', field: 'skipPrompt', value: 0, note: 'GM mercy' });
    expect(lines[0]!.text).toBe('GM override: the waiting question is set aside (Ana lost STR: roll the STR save against Critical Damage.) — GM mercy.');
    expect(e.view().prompt).toBeNull();
  });

  it('parses untrusted payloads into sentences', () => {
    const parse = (raw: unknown) => () => parseEvent(cairnErrantEncounter, raw);
    expect(parse({ type: 'FIREBALL' })).toThrow('"FIREBALL" is not an action this ruleset knows.');
    expect(parse({ type: 'DECLARE_INTENT', combatantId: 'a', action: 'dance' })).toThrow('An intent is melee, gambit, ranged, retreat, move, spell or other.');
    expect(parse({ type: 'DECLARE_INTENT', combatantId: 'a', action: 'move', bands: 3 })).toThrow('A move covers 1 or 2 range bands.');
    expect(parse({ type: 'END_TURN', extra: 1 })).toThrow(RuleRefusal);
    expect(parse({ type: 'SET_BAND', combatantId: 'a', band: 'beside' })).toThrow('A range band is close, near, far or distant.');
    // The runner's choice fields send numbers as text; the stored event holds numbers.
    expect(parseEvent(cairnErrantEncounter, { type: 'DECLARE_INTENT', combatantId: 'a', action: 'melee', die: '8', improvisedSize: '10', bands: '2' }))
      .toEqual({ type: 'DECLARE_INTENT', combatantId: 'a', action: 'melee', die: 8, improvisedSize: 10, bands: 2 });
    expect(parseEvent(cairnErrantEncounter, { type: 'DEFENSE', defence: 'block' })).toEqual({ type: 'DEFENSE', defence: 'block' });
  });
});

describe('rolls the app fills in', () => {
  it('asks for a d20, 2d20 keeping the worse after a leg hit, and the damage dice of everyone in the moment', () => {
    const e = fight([seed('ana', 'party', {}, { nextInitiativeDisadvantage: true }), seed('orc', 'enemies')]);
    intend(e, 'ana', 'other');
    intend(e, 'orc', 'other');
    lock(e);
    expect(e.rules.rollsFor!(e.snapshot, { type: 'DEX_SAVE', combatantId: 'ana' })).toEqual([{ path: ['roll'], label: 'Ana: DEX save (d20 ≤ 10, disadvantage)', notation: '2d20kh1', count: 2, sides: 20 }]);
  });
});

describe('event sourcing', () => {
  it('rebuilds the same state from a persisted snapshot plus the tail of events', () => {
    const events: GmEvent[] = [
      { type: 'ADD_COMBATANTS', combatants: [seed('bram', 'party', { weaponDie: 8 }), seed('orc', 'enemies', { armor: 1 })] },
      { type: 'START' },
      { type: 'DECLARE_INTENT', combatantId: 'bram', action: 'melee', targetId: 'orc' },
      { type: 'SET_NPC_INTENT', combatantId: 'orc', action: 'melee', targetId: 'bram' },
      { type: 'LOCK_INTENTS' },
      { type: 'DEX_SAVE', combatantId: 'bram', roll: app(15) },
      { type: 'DEFENSE', defence: 'fightBack', attackerId: 'orc' },
      { type: 'STRIKE', targetId: 'bram', roll: app(6) },
      { type: 'STR_SAVE', combatantId: 'bram', roll: app(3) },
      { type: 'FIGHT_BACK', defenderId: 'bram', roll: app(5) },
    ];
    const input = { options: defaultOptions(cairnErrantOptions), carried: {} };
    const whole = EncounterEngine.resume(cairnErrantEncounter, input, undefined, events);
    const head = EncounterEngine.resume(cairnErrantEncounter, input, undefined, events.slice(0, 7));
    const stored = JSON.parse(JSON.stringify(head.persisted()));
    const resumed = EncounterEngine.resume(cairnErrantEncounter, input, stored, events.slice(7));
    expect(resumed.view()).toEqual(whole.view());
    expect(resumed.persisted()).toEqual(whole.persisted());
    expect(who(resumed, 'orc').hp).toBe(0);
    expect(who(resumed, 'bram').fatigue).toBe(1);
  });
});
