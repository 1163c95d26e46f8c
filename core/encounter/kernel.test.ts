// The engine steps with XState's pure `transition` and hands out the snapshots it passes through (the state before
// an event, marks): that is sound only if no ruleset changes a context in place. Every ruleset's generated fight is
// replayed with each snapshot's context frozen before the next event, and the snapshots held along the way must
// still read as they did when they were made.
import { describe, expect, it, vi } from 'vitest';
import { setup, assign } from 'xstate';
import * as z from 'zod';
import { RULESET_IDS, generateFight, rulesOf } from '../../bench/fight.ts';
import { isCombatantTable } from './combatant-table.ts';
import { EncounterEngine, RuleRefusal, parseEvent } from './kernel.ts';
import type { EncounterRules } from './types.ts';

function deepFreeze(value: unknown, seen = new Set<unknown>()): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  for (const inner of Object.values(value)) deepFreeze(inner, seen);
  // A combatant table refuses every change in place itself (and a Proxy over it cannot be frozen).
  if (!isCombatantTable(value)) Object.freeze(value);
}

describe('EncounterEngine', () => {
  it.each(RULESET_IDS)('%s: no event changes the state it starts from', (rulesetId) => {
    const fight = generateFight(rulesetId, 24, 400, 11);
    const engine = EncounterEngine.create(fight.rules, fight.input);
    const held: { snapshot: ReturnType<typeof engine.persisted>; json: string }[] = [];
    for (const [i, event] of fight.events.entries()) {
      deepFreeze(engine.snapshot.context);
      if (i % 20 === 0) held.push({ snapshot: engine.snapshot, json: JSON.stringify(engine.snapshot.context) });
      engine.step(event); // a change in place throws here: the context it starts from is frozen
    }
    expect(engine.view()).toEqual(fight.view);
    for (const { snapshot, json } of held) expect(JSON.stringify((snapshot as { context: unknown }).context)).toBe(json);
    // Going back to a held state is the same as replaying up to it.
    const at = EncounterEngine.at(fight.rules, fight.input, held[3]!.snapshot as never);
    expect(at.view()).toEqual(EncounterEngine.resume(fight.rules, fight.input, undefined, fight.events.slice(0, 60)).view());
  });

  it.each(RULESET_IDS)('%s: one seed gives one generated fight, dice included, every time', (rulesetId) => {
    const once = generateFight(rulesetId, 8, 200, 3);
    const again = generateFight(rulesetId, 8, 200, 3);
    expect(again.events).toEqual(once.events);
    expect(again.view).toEqual(once.view);
    expect(generateFight(rulesetId, 8, 200, 4).events).not.toEqual(once.events);
  });

  it.each(RULESET_IDS)('%s: a step refuses exactly what refusal() refuses, with the same sentence', (rulesetId) => {
    // Events of the same fight tried at other moments (before it starts, during it, after it ended): valid by
    // construction, and mostly out of place there.
    const fight = generateFight(rulesetId, 12, 300, 5, [], { type: 'END_COMBAT', outcome: 'over' });
    const tried = [...fight.events.filter((_, i) => i % 7 === 0), { type: 'START' }, { type: 'END_COMBAT', outcome: 'again' }];
    const engine = EncounterEngine.create(fight.rules, fight.input);
    const counts = { taken: 0, refused: 0, byMachine: 0 };
    const probe = (at: string) => {
      for (const candidate of tried) {
        const asked = engine.refusal(candidate);
        const copy = EncounterEngine.at(fight.rules, fight.input, engine.snapshot);
        let stepped: string | null = null;
        try {
          copy.step(candidate);
        } catch (error) {
          if (!(error instanceof RuleRefusal)) throw error;
          stepped = error.message;
        }
        expect(stepped, `${candidate.type} ${at}`).toBe(asked);
        if (asked === null) counts.taken++;
        else counts.refused++;
        if (asked?.startsWith('That is not possible') || asked === 'This encounter has ended.') counts.byMachine++;
      }
    };
    for (const [i, event] of fight.events.entries()) {
      if (i % 10 === 0) probe(`after event ${i}`);
      engine.step(event);
    }
    probe('after the end');
    expect(engine.view().phase).toBe('ended');
    expect(Math.min(counts.refused, counts.taken)).toBeGreaterThan(20);
    expect(counts.byMachine, 'refusals by the machine').toBeGreaterThan(0);
  });

  it('refuses a machine that asks for actions it would not run, and stays where it was', () => {
    const noisy = setup({ actions: { ring: () => {} } }).createMachine({
      id: 'noisy', context: { n: 0 }, initial: 'idle',
      states: { idle: { on: { QUIET: { actions: assign({ n: ({ context }) => context.n + 1 }) }, LOUD: { actions: 'ring' } } } },
    });
    const eventSchema = z.discriminatedUnion('type', [z.strictObject({ type: z.literal('QUIET') }), z.strictObject({ type: z.literal('LOUD') })]);
    const rules = { machine: noisy, eventSchema, refusal: () => null, view: () => ({ phase: 'setup' }) } as unknown as EncounterRules;
    const engine = EncounterEngine.create(rules, {} as never);
    engine.step({ type: 'QUIET' } as never);
    expect(engine.snapshot.context).toEqual({ n: 1 });
    const refused = (() => {
      try {
        engine.step({ type: 'LOUD' } as never);
      } catch (error) {
        return error as Error;
      }
    })();
    expect(refused?.message).toBe('The noisy machine failed on LOUD.');
    expect((refused?.cause as Error).message).toBe('The noisy machine asked for actions the engine does not run: ring.');
    expect(engine.snapshot.context).toEqual({ n: 1 });
  });
});

// The engine is the one door for events: whatever reaches it is read by the ruleset's event schema first, so no
// caller has to remember parseEvent, and a stored or imported event is read like one a GM just sent.
describe('one door for events', () => {
  /** An Enigma fight under way, nobody waiting on a question: the engine and a combatant still standing. */
  const running = () => {
    const fight = generateFight('enigma', 4, 12, 3);
    const engine = EncounterEngine.resume(fight.rules, fight.input, undefined, fight.events);
    expect(engine.view().phase).toBe('running');
    const target = engine.view().order.find((c) => c.status !== 'removed')!;
    return { fight, engine, target };
  };
  const refusedWith = (act: () => unknown): string => {
    try {
      act();
    } catch (error) {
      if (error instanceof RuleRefusal) return error.message;
      throw error;
    }
    throw new Error('The event was accepted.');
  };

  it('apply refuses an event it was handed unparsed and malformed, with the sentence, and changes nothing', () => {
    const { engine, target } = running();
    const before = engine.snapshot;
    const stored = JSON.stringify(engine.persisted());
    // Enigma's schema: "An amount is at most 99." Unread, the rules took the 500 and dealt it.
    const malformed = { type: 'APPLY_DAMAGE', targetId: target.id, amount: 500, source: 'a falling tower' };
    expect(refusedWith(() => engine.apply(malformed))).toBe('An amount is at most 99.');
    expect(refusedWith(() => engine.step(malformed))).toBe('An amount is at most 99.');
    expect(engine.refusal(malformed)).toBe('An amount is at most 99.');
    expect(engine.snapshot).toBe(before);
    expect(JSON.stringify(engine.persisted())).toBe(stored);
    // The same event, well formed, goes through the same door.
    expect(engine.apply({ ...malformed, amount: 2 }).length).toBeGreaterThan(0);
  });

  it('a replay reads every stored event: one that does not parse stops it with the sentence', () => {
    const { fight, target } = running();
    const forged = { type: 'HEAL', targetId: target.id, amount: 3, kind: 'miracle', source: 'a file from elsewhere' };
    expect(refusedWith(() => EncounterEngine.resume(fight.rules, fight.input, undefined, [...fight.events, forged])))
      .toBe('In HEAL, kind must be one of magic, fix, other.');
  });

  it('an event parseEvent gave is not parsed again, nor after the app rolls its dice; anything else is parsed once', () => {
    // The generated fight up to its first attack with dice, and that attack as a GM sends it: dice left to the app.
    const fight = generateFight('enigma', 6, 200, 3);
    const at = fight.events.findIndex((e) => e.type === 'ATTACK' && e['attackRoll']);
    const engine = EncounterEngine.resume(fight.rules, fight.input, undefined, fight.events.slice(0, at));
    const { attackRoll: _a, defenceRoll: _d, ...sent } = fight.events[at]!;
    const safeParse = vi.spyOn(fight.rules.eventSchema, 'safeParse');
    try {
      const parsed = parseEvent(fight.rules, JSON.parse(JSON.stringify(sent)));
      const rolled = engine.withRolls(parsed);
      expect(rolled).not.toBe(parsed); // the app rolled the attack and the defence
      expect(rolled['attackRoll']).toMatchObject({ source: 'app' });
      expect(engine.refusal(rolled)).toBeNull();
      engine.apply(rolled);
      expect(safeParse).toHaveBeenCalledTimes(1);
      // A stored event (JSON, not parseEvent's) is read once, whatever the rules then say of it here.
      engine.refusal(JSON.parse(JSON.stringify(fight.events[at + 1])));
      expect(safeParse).toHaveBeenCalledTimes(2);
    } finally {
      safeParse.mockRestore();
    }
  });

  it('a roll the app adds is read by its field\'s schema: one the schema refuses is refused like a typed one', () => {
    const machine = setup({}).createMachine({ id: 'dice', context: { faces: [] as number[] }, initial: 'idle', states: { idle: { on: { ROLL: { actions: assign({ faces: ({ event }) => (event as unknown as { roll: { faces: number[] } }).roll.faces }) } } } } });
    const roll = z.strictObject({ faces: z.array(z.number().int().min(1).max(6)).max(3, { error: 'At most 3 dice in one roll.' }), source: z.enum(['app', 'manual']) });
    const eventSchema = z.discriminatedUnion('type', [z.strictObject({ type: z.literal('ROLL'), count: z.number().int(), roll: roll.nullable().optional() })]);
    const rules = {
      machine, eventSchema, refusal: () => null, view: () => ({ phase: 'running' }), describe: () => [],
      rollsFor: (_: unknown, event: { count: number }) => [{ path: ['roll'], label: 'Dice', notation: `${event.count}d6`, count: event.count, sides: 6 }],
    } as unknown as EncounterRules;
    const engine = EncounterEngine.create(rules, {} as never);
    engine.apply(engine.withRolls(parseEvent(rules, { type: 'ROLL', count: 2 })));
    expect((engine.snapshot.context as { faces: number[] }).faces).toHaveLength(2);
    expect(refusedWith(() => engine.withRolls(parseEvent(rules, { type: 'ROLL', count: 5 })))).toBe('At most 3 dice in one roll.');
  });

  it('a stored ending carries the GM\'s carry-over adjustments beside the ruleset\'s fields; a malformed one is refused', () => {
    const { fight, engine } = running();
    const ending = { type: 'END_COMBAT', outcome: 'won', carryAdjust: [{ characterId: 'c1', key: 'lp', value: 7 }], carryReason: 'a draught' };
    expect(engine.refusal(ending)).toBeNull();
    expect(refusedWith(() => EncounterEngine.at(fight.rules, fight.input, engine.snapshot).apply({ ...ending, carryAdjust: [{ characterId: 'c1', key: 'lp', value: 'seven' }] })))
      .toBe('The carry-over adjustment on this action is malformed.');
    // A GM's payload is no stored event: parseEvent does not take the store's own fields.
    expect(() => parseEvent(fight.rules, ending)).toThrow("END_COMBAT has no fields 'carryAdjust', 'carryReason'; it takes: outcome.");
    engine.apply(ending);
    expect(engine.view().phase).toBe('ended');
  });
});

// parseEvent's sentences name the field that is wrong, in the ruleset's own words where it has them.
describe('parseEvent names the field', () => {
  const enigma = rulesOf('enigma');
  const factions = rulesOf('factions');
  const attack = { type: 'ATTACK', attackerId: 'a', targetId: 'b', mode: 'melee', sight: 'clear', damage: 'full' };
  const refusal = (rules: EncounterRules, raw: unknown) => (() => parseEvent(rules, raw)) as () => never;

  it('an extra field on a known event is that event\'s unknown field, not an unknown action', () => {
    expect(refusal(enigma, { ...attack, targt: 'b' })).toThrow(/^ATTACK has no field 'targt'; it takes: attackerId, targetId, mode, distance, /);
    expect(refusal(enigma, { type: 'END_TURN', extra: 1 })).toThrow("END_TURN has no field 'extra'; it takes none.");
    // Inside a list of the event: the list and the entry are named.
    expect(refusal(enigma, { type: 'AREA_DAMAGE', targets: [{ targetId: 'a', amount: 2, ammount: 2 }], source: '' }))
      .toThrow("In AREA_DAMAGE, targets.0 has no field 'ammount'; it takes: targetId, amount.");
  });

  it('a misnamed key is named as the field the event does not take, not as the one it now lacks', () => {
    const { targetId: _, ...misnamed } = { ...attack, target: 'b' };
    expect(refusal(enigma, misnamed)).toThrow(/^ATTACK has no field 'target'; it takes: attackerId, targetId, /);
    expect(refusal(factions, { type: 'ATTACK', attackerId: 'a', targetIds: ['b'], knd: 'melee' })).toThrow(/^ATTACK has no field 'knd'; it takes: .*\bkind\b/);
  });

  it('a value outside a choice names the field and its choices', () => {
    expect(refusal(enigma, { ...attack, mode: 'meele' })).toThrow(/^In ATTACK, mode must be one of melee, ranged\.$/);
    // The ruleset's own sentence is kept, after the field it is about.
    expect(refusal(factions, { type: 'ATTACK', attackerId: 'a', targetIds: ['b'], kind: 'psychic' })).toThrow(/^In ATTACK, kind: An attack is melee, ranged or indirect\.$/);
    const { mode: _, ...modeless } = attack;
    expect(refusal(enigma, modeless)).toThrow(/^In ATTACK, mode is missing; it must be one of melee, ranged\.$/);
  });
});
