// Factions' order policy (RULES.md §3.2) through the event-sourced kernel: initiative, the faction cycle, passes,
// fast and slow phases, the ambush bonus turn, blocking questions, refusals and event sourcing.
import { describe, expect, it } from 'vitest';
import { EncounterEngine, RuleRefusal, parseEvent } from '../../encounter/kernel.ts';
import type { GmEvent } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { factionsEncounter } from './encounter.ts';
import { factionsOptions } from './options.ts';
import { app, ctx, encounter, seed, texts, who } from './testing.ts';

/** Three factions A (party), B (gm) and C, two members each, A holding the initiative. */
function threeFactions(options: Record<string, string | number | boolean> = {}) {
  const e = encounter(options);
  e.apply({ type: 'ADD_FACTION', key: 'c', label: 'Cultists' });
  e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('a1', 'party'), seed('a2', 'party'), seed('b1', 'gm'), seed('b2', 'gm'), seed('c1', 'c'), seed('c2', 'c')] });
  e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
  e.apply({ type: 'START' });
  return e;
}
const up = (e: EncounterEngine) => ctx(e).current;

describe('initiative and the first faction (§3.2 rules 1–2)', () => {
  it('asks who started the fight when nobody said so, and rolls for it when that is unclear', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('foe', 'gm')] });
    expect(() => e.apply({ type: 'SET_INITIATIVE', faction: 'random' })).toThrow('Roll for the initiative once the fight has started');
    e.apply({ type: 'START' });
    const prompt = e.view().prompt!;
    expect([prompt.answer, prompt.choices.map((c) => c.id)]).toEqual(['SET_INITIATIVE', ['party', 'gm', 'random']]);
    expect(e.view().allowed).toEqual(['SET_INITIATIVE', 'OVERRIDE']);
    expect(() => e.apply({ type: 'END_COMBAT', outcome: '' })).toThrow('Say which faction started the fight (or roll for it) first');
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'SET_INITIATIVE', faction: 'random' })).toEqual([{ path: ['roll'], label: 'Initiative: which faction', notation: '1d2', count: 1, sides: 2 }]);
    expect(() => e.apply({ type: 'SET_INITIATIVE', faction: 'random', roll: app(3) })).toThrow('3 is not a face of a d2.');
    const lines = e.apply({ type: 'SET_INITIATIVE', faction: 'random', roll: app(2) });
    expect(texts(lines)[0]).toBe('Nobody clearly started the fight: d2 [2] gives the initiative to Enemies.');
    expect(e.view().prompt?.text).toBe('Enemies hold the initiative: which faction acts first in round 1?');
  });

  it('lets the initiative holder send an enemy faction first', () => {
    const e = threeFactions();
    const lines = e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'c' });
    expect(texts(lines)[0]).toBe('Party holds the initiative and sends Cultists first.');
    expect(up(e)).toBe('c');
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['c1', 'c2', 'pass']);
  });
});

describe('the faction cycle and passes (rules 3–6, R-F1, R-F3, R-F4, R-F5)', () => {
  it('R-F1 follows the GM-set cycle from the faction the holder names', () => {
    const e = encounter();
    e.apply({ type: 'ADD_FACTION', key: 'c', label: 'Cultists' });
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('a1', 'party'), seed('b1', 'gm'), seed('c1', 'c')] });
    e.apply({ type: 'SET_FACTION_CYCLE', keys: ['party', 'c', 'gm'] });
    expect(() => e.apply({ type: 'SET_FACTION_CYCLE', keys: ['party', 'c'] })).toThrow('The cycle must list every faction exactly once: Party, Enemies, Cultists.');
    e.apply({ type: 'SET_INITIATIVE', faction: 'gm' });
    e.apply({ type: 'START' });
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'c' });
    const turns: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      turns.push(up(e)!);
      e.apply({ type: 'SELECT_CHARACTER', combatantId: e.view().prompt!.choices[0]!.id });
      e.apply({ type: 'END_TURN' });
    }
    expect(turns).toEqual(['c', 'gm', 'party']);
  });

  it('R-F4 A passes, B acts, C passes, A passes, B passes: the round ends (C, A and B passed in a row)', () => {
    const e = threeFactions();
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    e.apply({ type: 'PASS' }); // A
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'b1' }); // B acts: the streak resets
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'PASS' }); // C
    e.apply({ type: 'PASS' }); // A
    expect(ctx(e).passStreak).toBe(2);
    const lines = e.apply({ type: 'PASS' }); // B
    expect(texts(lines)).toContain('Every faction passed in a row: round 1 ends. A1, A2, B2, C1, C2 did not act and lose the turn.');
    expect(e.view().round).toBe(2);
  });

  it('a pass keeps the faction\'s characters for its next opportunity (rule 4)', () => {
    const e = threeFactions();
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    e.apply({ type: 'SELECT_CHARACTER', pass: true }); // the prompt's Pass button
    expect([up(e), ctx(e).passStreak]).toEqual(['gm', 1]);
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'b1' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'c1' });
    e.apply({ type: 'END_TURN' });
    expect(up(e)).toBe('party');
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['a1', 'a2', 'pass']);
  });

  it('R-F3 a faction with nobody eligible passes automatically and the pass counts; each character acts once a round', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('foe', 'gm'), seed('brute', 'gm')] });
    e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
    e.apply({ type: 'START' });
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'hero' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe' });
    const lines = e.apply({ type: 'END_TURN' });
    expect(texts(lines)).toContain('Party has nobody who can act: automatic pass (1 in a row).');
    expect(up(e)).toBe('gm');
    expect(() => e.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe' })).toThrow('Foe has already used this round\'s turn.');
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'brute' });
    const end = e.apply({ type: 'END_TURN' });
    expect(texts(end)).toEqual(expect.arrayContaining(['Party has nobody who can act: automatic pass (1 in a row).', 'Enemies have nobody who can act: automatic pass (2 in a row).', 'Round 2 begins.']));
  });

  it('R-F5 a reaction uses up the reactor\'s turn but moves neither the faction cursor nor the pass streak', () => {
    const e = threeFactions();
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'gm' });
    e.apply({ type: 'PASS' }); // B passes: streak 1, C is up
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'c1' });
    expect(ctx(e).passStreak).toBe(0);
    e.apply({ type: 'ATTACK', attackerId: 'c1', targetIds: ['a1'], kind: 'melee' });
    const lines = e.apply({ type: 'REACT', reaction: 'dodge', roll: app(20) });
    expect(lines[0]!.rulings).toContain('R-F5');
    e.apply({ type: 'RESOLVE_ATTACK', damageRoll: app(1) });
    expect([up(e), ctx(e).passStreak]).toEqual(['c', 0]);
    e.apply({ type: 'END_TURN' });
    expect(up(e)).toBe('party');
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['a2', 'pass']);
  });

  it('refuses a character of another faction, and a selection while a turn is open', () => {
    const e = threeFactions();
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    expect(() => e.apply({ type: 'SELECT_CHARACTER', combatantId: 'b1' })).toThrow("It is Party's go, not Enemies'.");
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'a1' });
    expect(() => e.apply({ type: 'SELECT_CHARACTER', combatantId: 'a2' })).toThrow('A1 is taking a turn: end it first.');
    expect(() => e.apply({ type: 'PASS' })).toThrow('A1 is taking a turn: end it first.');
  });
});

describe('fast and slow phases (§3.2 rule 9, R-F6)', () => {
  function fastSlow(initiativePerPhase: string) {
    const e = encounter({ initiativePerPhase });
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('quick', 'party', { wit: 15 }), seed('slow', 'party', { wit: 3 }), seed('foe', 'gm', { wit: 10 })] });
    e.apply({ type: 'SET_OPTIONAL_RULES', fastSlow: true, chaos: false });
    e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
    e.apply({ type: 'START' });
    expect(factionsEncounter.rollsFor!(e.snapshot, { type: 'ROLL_FAT' })).toEqual([{ path: ['roll'], label: 'Fast action threshold', notation: '1d20', count: 1, sides: 20 }]);
    expect(() => e.apply({ type: 'ROLL_FAT', roll: app(21) })).toThrow(RuleRefusal);
    e.apply({ type: 'ROLL_FAT', roll: app(10) });
    return e;
  }

  it('WIT equal to the FAT acts in the fast phase (matches or exceeds)', () => {
    const e = fastSlow('eachPhase');
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'gm' });
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['foe', 'pass']);
    expect(e.view().order.find((c) => c.id === 'slow')!.status).toBe('unplaced');
    expect(e.view().counters).toContainEqual({ key: 'fat', label: 'FAT', value: 10 });
  });

  it('R-F6 the holder chooses again in the slow phase; once per round reuses the fast-phase choice', () => {
    const each = fastSlow('eachPhase');
    each.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'gm' });
    each.apply({ type: 'PASS' });
    each.apply({ type: 'PASS' });
    expect(each.view().prompt?.answer).toBe('CHOOSE_FIRST_FACTION');
    const once = fastSlow('oncePerRound');
    once.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'gm' });
    once.apply({ type: 'PASS' });
    const lines = once.apply({ type: 'PASS' });
    expect(texts(lines)).toContain('Enemies act first again in the slow phase.');
    expect([up(once), once.view().prompt?.choices.map((c) => c.id)]).toEqual(['gm', ['foe', 'pass']]);
  });

  it('refuses the FAT outside the start of a round, and when the option is off', () => {
    const e = fastSlow('eachPhase');
    expect(() => e.apply({ type: 'ROLL_FAT', roll: app(3) })).toThrow('The fast action threshold is rolled once, at the start of the round.');
    const off = encounter();
    off.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('foe', 'gm')] });
    off.apply({ type: 'SET_INITIATIVE', faction: 'party' });
    off.apply({ type: 'START' });
    expect(() => off.apply({ type: 'ROLL_FAT', roll: app(3) })).toThrow('Fast and slow activations are not in play in this fight.');
  });

  it('reads the optional rules from the campaign options when present', () => {
    const e = encounter({ fastSlow: true } as Record<string, boolean>);
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('foe', 'gm')] });
    e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
    e.apply({ type: 'START' });
    expect(e.view().prompt?.answer).toBe('ROLL_FAT');
  });
});

describe('the ambush bonus turn (§3.2 rule 8, R-F2)', () => {
  it('only the concealed act, in the take-or-pass loop the holder starts; they act again in round 1', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('scout', 'party'), seed('foe', 'gm'), seed('lurker', 'gm')] });
    e.apply({ type: 'SET_CONCEALED', combatantId: 'scout', concealed: true });
    e.apply({ type: 'SET_CONCEALED', combatantId: 'lurker', concealed: true });
    e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
    const start = e.apply({ type: 'START' });
    expect(texts(start)).toContain('Ambush: Scout, Lurker play a bonus turn before round 1; only they act.');
    expect(e.view().prompt?.text).toBe('Party holds the initiative: which faction acts first in the ambush bonus turn?');
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['scout', 'pass']);
    expect(() => e.apply({ type: 'SELECT_CHARACTER', combatantId: 'hero' })).toThrow('Only the ambushers act in the ambush bonus turn; Hero was not concealed.');
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'scout' });
    e.apply({ type: 'ATTACK', attackerId: 'scout', targetIds: ['foe'], kind: 'melee' });
    // Taken by surprise: no reaction window, straight to damage. The attack revealed the scout.
    expect(e.view().prompt?.answer).toBe('RESOLVE_ATTACK');
    expect(who(e, 'scout').concealed).toBe(false);
    e.apply({ type: 'RESOLVE_ATTACK', damageRoll: app(2) });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'lurker' });
    const end = e.apply({ type: 'END_TURN' });
    expect(texts(end)).toEqual(expect.arrayContaining(['Every faction passed in a row: the ambush bonus turn ends. The ambushers still get their turn in round 1.', 'Round 1 begins.']));
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['hero', 'scout', 'pass']);
  });
});

describe('blocking questions (RULES.md §6.8)', () => {
  it('refuses everything but the answer and OVERRIDE while a reaction is awaited', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('foe', 'gm')] });
    e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
    e.apply({ type: 'START' });
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'hero' });
    e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'melee' });
    expect(e.view().allowed).toEqual(['REACT', 'OFFER_STUNT', 'OVERRIDE']);
    const before = JSON.stringify(e.persisted());
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('Foe must choose a reaction (or none) first.');
    expect(() => e.apply({ type: 'APPLY_DAMAGE', targetId: 'foe', amount: 1, source: '' })).toThrow('Foe must choose a reaction (or none) first.');
    expect(() => e.apply({ type: 'END_COMBAT', outcome: '' })).toThrow('Foe must choose a reaction (or none) first.');
    expect(JSON.stringify(e.persisted())).toBe(before);
    const lines = e.apply({ type: 'OVERRIDE', field: 'cancelAttack', note: 'wrong target' });
    expect(texts(lines)[0]).toBe('GM override: the attack is called off (wrong target).');
    expect(e.view().allowed).toContain('END_TURN');
  });
});

describe('removals and late arrivals', () => {
  it('ends the turn of a removed active character, and lets a late arrival act this round', () => {
    const e = threeFactions();
    e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'a1' });
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'a1', reason: 'fled through the door' });
    expect(e.view().activeId).toBeNull();
    expect(up(e)).toBe('gm');
    e.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('b3', 'gm') });
    expect(e.view().prompt?.choices.map((c) => c.id)).toEqual(['b1', 'b2', 'b3', 'pass']);
    expect(ctx(e).groups['faction:gm']!.originalCount).toBe(3);
    expect(e.view().order.find((c) => c.id === 'a1')).toMatchObject({ status: 'removed', removedReason: 'fled through the door' });
  });
});

describe('setup', () => {
  it('refuses setup mistakes with a sentence and changes nothing', () => {
    const e = encounter();
    expect(() => e.apply({ type: 'START' })).toThrow('A fight needs members in at least two factions.');
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party')] });
    expect(() => e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party')] })).toThrow('Hero is already in this encounter.');
    expect(() => e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('x', 'pirates')] })).toThrow('X must join one of the factions: Party, Enemies.');
    expect(() => e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('pass', 'gm')] })).toThrow('"pass" cannot be a combatant\'s id.');
    expect(() => e.apply({ type: 'ADD_FACTION', key: 'gm', label: 'Goblins' })).toThrow('There is already a faction "Enemies" with that key.');
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('Start the fight first.');
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('foe', 'gm')] });
    e.apply({ type: 'START' });
    expect(() => e.apply({ type: 'ADD_FACTION', key: 'c', label: 'C' })).toThrow('Factions, groups and ambushers are fixed once the fight starts.');
  });

  it('moves a combatant to another faction, drops empty factions from the cycle, and groups members for morale', () => {
    const e = encounter();
    e.apply({ type: 'ADD_FACTION', key: 'c', label: 'Cultists' });
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('foe', 'gm'), seed('imp', 'gm')] });
    e.apply({ type: 'SET_FACTION', combatantId: 'imp', faction: 'c' });
    e.apply({ type: 'SET_GROUP', groupId: 'pack', label: 'Pack', memberIds: ['foe'] });
    expect(() => e.apply({ type: 'SET_GROUP', groupId: 'mixed', label: 'Mixed', memberIds: ['hero', 'foe'] })).toThrow('A morale group stays inside one faction.');
    e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
    const start = e.apply({ type: 'START' });
    expect(texts(start)[0]).toBe('The fight starts. Factions in cycle order: Party → Enemies → Cultists. Morale groups: Party 1, Cultists 1, Pack 1.');
    expect(e.view().order.map((c) => [c.name, c.sideLabel])).toEqual([['Hero', 'Party'], ['Foe', 'Enemies'], ['Imp', 'Cultists']]);
  });
});

describe('parsing untrusted payloads', () => {
  it('turns bad events into sentences', () => {
    const parse = (raw: unknown) => () => parseEvent(factionsEncounter, raw);
    expect(parse({ type: 'FIREBALL' })).toThrow('"FIREBALL" is not an action this ruleset knows.');
    expect(parse({ type: 'ATTACK', attackerId: 'a', targetIds: ['b'], kind: 'psychic' })).toThrow('An attack is melee, ranged or indirect.');
    expect(parse({ type: 'ATTACK', attackerId: 'a', targetIds: ['b'], kind: 'melee', die: 7 })).toThrow('A damage die is a d4, d6, d8, d10 or d12.');
    expect(parse({ type: 'MORALE_OUTCOME', outcome: 'cry' })).toThrow('Those who fail morale surrender or retreat.');
    expect(parse({ type: 'END_TURN', extra: 1 })).toThrow(RuleRefusal);
    expect(parseEvent(factionsEncounter, { type: 'PASS' })).toEqual({ type: 'PASS' });
  });
});

describe('event sourcing', () => {
  it('rebuilds the same state from a persisted snapshot plus the tail of events', () => {
    const events: GmEvent[] = [
      { type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party', { wit: 12 }), seed('ally', 'party'), seed('foe', 'gm', { agi: 5 }), seed('brute', 'gm')] },
      { type: 'SET_OPTIONAL_RULES', fastSlow: true, chaos: false },
      { type: 'SET_INITIATIVE', faction: 'party' },
      { type: 'START' },
      { type: 'ROLL_FAT', roll: app(11) },
      { type: 'CHOOSE_FIRST_FACTION', faction: 'party' },
      { type: 'SELECT_CHARACTER', combatantId: 'hero' },
      { type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'melee' },
      { type: 'REACT', reaction: 'dodge', roll: app(17) },
      { type: 'RESOLVE_ATTACK', damageRoll: app(4) },
      { type: 'END_TURN' },
      { type: 'CHOOSE_FIRST_FACTION', faction: 'gm' },
    ];
    const input = { options: defaultOptions(factionsOptions), carried: {} };
    const whole = EncounterEngine.resume(factionsEncounter, input, undefined, events);
    for (const cut of [4, 8, 9]) {
      const head = EncounterEngine.resume(factionsEncounter, input, undefined, events.slice(0, cut));
      const stored = JSON.parse(JSON.stringify(head.persisted()));
      const resumed = EncounterEngine.resume(factionsEncounter, input, stored, events.slice(cut));
      expect(resumed.view()).toEqual(whole.view());
      expect(resumed.persisted()).toEqual(whole.persisted());
    }
    expect([whole.view().prompt?.answer, ctx(whole).phase]).toEqual(['SELECT_CHARACTER', 'slow']);
    expect((whole.snapshot.context as { combatants: Record<string, { health: number }> }).combatants['foe']!.health).toBe(6);
  });
});

describe('action forms', () => {
  it('every form left at its defaults sends an event the schema parses', () => {
    for (const form of factionsEncounter.actionForms!) {
      const event: Record<string, unknown> = { type: form.type };
      for (const field of form.fields) {
        if (field.optional) continue;
        if (field.kind === 'combatant') event[field.key] = 'c1';
        else if (field.kind === 'combatants') event[field.key] = ['c1'];
        else if (field.kind === 'integer') event[field.key] = field.default ?? field.min ?? 0;
        else if (field.kind === 'choice') event[field.key] = field.default ?? field.choices?.[0]?.value;
        else if (field.kind === 'text') event[field.key] = field.default || 'x';
        else event[field.key] = field.default ?? false;
      }
      expect(() => parseEvent(factionsEncounter, event), form.type).not.toThrow();
    }
  });

  it('every setup event is allowed in setup and has a form the prep screen can draw', () => {
    const setup = encounter().view().allowed;
    const formTypes = factionsEncounter.actionForms!.map((f) => f.type);
    for (const type of ['ADD_FACTION', 'RENAME_FACTION', 'SET_FACTION', 'SET_FACTION_CYCLE', 'SET_GROUP', 'SET_INITIATIVE', 'SET_CONCEALED', 'SET_ZONE', 'SET_OPTIONAL_RULES']) {
      expect(setup, type).toContain(type);
      expect(formTypes, type).toContain(type);
    }
  });

  it('setup forms name factions by key or label and the cycle as text; refusals list the factions', () => {
    const e = encounter();
    e.apply(parseEvent(factionsEncounter, { type: 'ADD_FACTION', key: 'wolves', label: 'Wolves' }));
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('foe', 'gm'), seed('imp', 'gm'), seed('wolf', 'wolves')] });
    const cycle = parseEvent(factionsEncounter, { type: 'SET_FACTION_CYCLE', keys: 'Wolves, party, Enemies' });
    expect(cycle).toEqual({ type: 'SET_FACTION_CYCLE', keys: ['Wolves', 'party', 'Enemies'] });
    expect(texts(e.apply(cycle))).toEqual(['Faction cycle: Wolves → Party → Enemies.']);
    expect(() => e.apply({ type: 'SET_FACTION', combatantId: 'imp', faction: 'bears' })).toThrow('There is no faction "bears": the factions are Party (party), Enemies (gm), Wolves (wolves).');
    e.apply({ type: 'SET_FACTION', combatantId: 'imp', faction: 'wolves' });
    expect(who(e, 'imp').faction).toBe('wolves');
    // A group from a form has only a label: its id is made from it.
    e.apply(parseEvent(factionsEncounter, { type: 'SET_GROUP', label: 'Pack', memberIds: ['imp', 'wolf'] }));
    expect(ctx(e).groups['group:pack']).toMatchObject({ label: 'Pack', members: ['imp', 'wolf'] });
    e.apply({ type: 'SET_INITIATIVE', faction: 'Enemies' });
    e.apply({ type: 'SET_CONCEALED', combatantId: 'wolf', concealed: true });
    expect(texts(e.apply({ type: 'SET_OPTIONAL_RULES', fastSlow: true, chaos: false }))).toEqual(['Optional rules: fast and slow activations on; the chaos of combat off.']);
    e.apply({ type: 'START' });
    expect([ctx(e).initiative, ctx(e).cycle, ctx(e).fastSlow]).toEqual(['gm', ['wolves', 'party', 'gm'], true]);
    expect(() => e.apply({ type: 'SET_OPTIONAL_RULES', fastSlow: false, chaos: false })).toThrow('The optional rules (fast and slow phases, the chaos of combat) are fixed once the fight starts.');
  });

  it('an override typed in a form: a number for health, on/off for flags', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('foe', 'gm')] });
    e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
    e.apply({ type: 'START' });
    expect(() => e.apply({ type: 'OVERRIDE', field: 'health', targetId: 'foe', value: 'lots', note: '' })).toThrow('Health is a whole number from 0 to 10.');
    e.apply({ type: 'OVERRIDE', field: 'health', targetId: 'foe', value: '7', note: 'potion' });
    e.apply({ type: 'OVERRIDE', field: 'unaware', targetId: 'foe', value: 'on', note: '' });
    expect([who(e, 'foe').health, who(e, 'foe').unaware]).toEqual([7, true]);
  });
});
