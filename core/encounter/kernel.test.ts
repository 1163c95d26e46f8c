// The engine steps with XState's pure `transition` and hands out the snapshots it passes through (the state before
// an event, marks): that is sound only if no ruleset changes a context in place. Every ruleset's generated fight is
// replayed with each snapshot's context frozen before the next event, and the snapshots held along the way must
// still read as they did when they were made.
import { describe, expect, it } from 'vitest';
import { setup, assign } from 'xstate';
import { RULESET_IDS, generateFight } from '../../bench/fight.ts';
import { EncounterEngine, RuleRefusal } from './kernel.ts';
import type { EncounterRules } from './types.ts';

function deepFreeze(value: unknown, seen = new Set<unknown>()): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  for (const inner of Object.values(value)) deepFreeze(inner, seen);
  Object.freeze(value);
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
    const rules = { machine: noisy, refusal: () => null, view: () => ({ phase: 'setup' }) } as unknown as EncounterRules;
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
