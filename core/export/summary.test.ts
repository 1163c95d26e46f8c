// The per-round summary, computed by replaying events through the kernel: damage taken and dealt (credited to the
// acting combatant), healing, statuses at the end of each round, who went down, and Thrum's loads instead of damage.
import { describe, expect, it } from 'vitest';
import { EncounterEngine } from '../encounter/kernel.ts';
import type { CombatantSeed, GmEvent, LogLine } from '../encounter/types.ts';
import { defaultOptions } from '../rulesets/options.ts';
import { findRuleset } from '../rulesets/registry.ts';
import { defaultSheet } from '../rulesets/sheet.ts';
import { RULESET_IDS, generateFight } from '../../bench/fight.ts';
import { SummaryFold, replayEncounter, rosterChange, summarize, totalsOf, type ReplayStep } from './summary.ts';
import type { RoundSummary } from './types.ts';

/** Applies events one by one, as the store does, keeping each event with the lines it wrote. */
function record(rulesetId: string, events: GmEvent[]) {
  const ruleset = findRuleset(rulesetId)!;
  const input = { options: defaultOptions(ruleset.options), carried: {} };
  const engine = EncounterEngine.create(ruleset.encounter, input);
  const steps: ReplayStep[] = [];
  for (const event of events) steps.push({ event, lines: engine.apply(event) });
  return { rules: ruleset.encounter, input, steps, engine };
}

function seed(rulesetId: string, id: string, side: string, sheet: Record<string, unknown> = {}): CombatantSeed {
  const ruleset = findRuleset(rulesetId)!;
  return { id, name: id[0]!.toUpperCase() + id.slice(1), side, characterId: null, sheet: { ...defaultSheet(ruleset.sheet), ...sheet } as CombatantSeed['sheet'] };
}

const figures = (summary: RoundSummary[], round: number, id: string) => summary.find((s) => s.round === round)!.combatants.find((c) => c.id === id)!;
const app = (...faces: number[]) => ({ faces, source: 'app' as const });

describe('the per-round summary', () => {
  const enigmaFight = (more: GmEvent[]) =>
    record('enigma', [{ type: 'ADD_COMBATANTS', combatants: [seed('enigma', 'berrik', 'party', { endure: 10 }), seed('enigma', 'goblin', 'gm', { endure: 6 })] }, { type: 'START' }, ...more]);

  it('counts a fall of the health track as damage taken, credits the attacker, and not the target of a GM\'s damage', () => {
    const { rules, input, steps } = enigmaFight([
      { type: 'APPLY_DAMAGE', targetId: 'goblin', amount: 2, source: 'a falling rock' },
      { type: 'ATTACK', attackerId: 'berrik', targetId: 'goblin', mode: 'melee', sight: 'clear', damage: 'full', attackRoll: app(8), defenceRoll: app(1) },
    ]);
    const attack = steps.at(-1)!.lines!.map((l) => l.text).join(' ');
    expect(attack).toMatch(/hit/);
    const summary = summarize(rules, input, steps);
    expect(summary.map((s) => [s.round, s.measure])).toEqual([[1, 'damage']]);
    const goblin = figures(summary, 1, 'goblin');
    const berrik = figures(summary, 1, 'berrik');
    // The rock: 2 taken and credited to nobody (its log line's actor is the goblin itself); the attack: the rest.
    expect(goblin.taken).toBeGreaterThan(2);
    expect(berrik.dealt).toBe(goblin.taken - 2);
    expect(goblin.dealt).toBe(0);
    expect(berrik).toMatchObject({ name: 'Berrik', side: 'Party', taken: 0, healed: 0 });
  });

  it('splits the figures by the round each event was applied in, and keeps the statuses of each round\'s end', () => {
    const { rules, input, steps } = enigmaFight([
      { type: 'APPLY_DAMAGE', targetId: 'berrik', amount: 3, source: 'trap' },
      { type: 'SET_CAN_ACT', combatantId: 'goblin', canAct: false, note: 'stunned' },
      // The goblin cannot act, so Berrik's end of turn ends the round.
      { type: 'END_TURN' },
      { type: 'SET_CAN_ACT', combatantId: 'goblin', canAct: true, note: 'shakes it off' },
      { type: 'HEAL', targetId: 'berrik', amount: 2, kind: 'magic', source: 'potion' },
      { type: 'APPLY_DAMAGE', targetId: 'berrik', amount: 1, source: 'trap' },
    ]);
    const summary = summarize(rules, input, steps);
    expect(summary.map((s) => s.round)).toEqual([1, 2]);
    expect(figures(summary, 1, 'berrik')).toMatchObject({ taken: 3, healed: 0 });
    expect(figures(summary, 2, 'berrik')).toMatchObject({ taken: 1, healed: 2 });
    expect(figures(summary, 1, 'goblin').statuses).toContain('cannot act');
    expect(figures(summary, 2, 'goblin').statuses).not.toContain('cannot act');
    expect(totalsOf(summary).find((t) => t.id === 'berrik')).toMatchObject({ taken: 4, healed: 2, downInRounds: [] });
  });

  it('marks who went down in the round it happened only (health at 0, defeated), and one who fled as leaving, not down', () => {
    const { rules, input, steps } = enigmaFight([
      { type: 'APPLY_DAMAGE', targetId: 'goblin', amount: 20, source: 'ogre' },
      { type: 'END_TURN' },
      { type: 'REMOVE_COMBATANT', combatantId: 'berrik', reason: 'flees' },
    ]);
    const summary = summarize(rules, input, steps);
    expect(figures(summary, 1, 'goblin')).toMatchObject({ down: true });
    expect(figures(summary, 1, 'berrik')).toMatchObject({ down: false });
    expect(figures(summary, 2, 'goblin')).toMatchObject({ down: false });
    expect(figures(summary, 2, 'berrik')).toMatchObject({ down: false, statuses: expect.arrayContaining(['left the fight (flees)']) });
    expect(figures(summary, 1, 'berrik').statuses).not.toContain('left the fight (flees)');
    expect(totalsOf(summary).map((t) => [t.id, t.downInRounds])).toEqual(expect.arrayContaining([['goblin', [1]], ['berrik', []]]));
  });

  it('Cairn-Errant: one the GM takes out of the fight alive left it; the stored roster changes say the same as a replay', () => {
    const events: GmEvent[] = [
      { type: 'ADD_COMBATANTS', combatants: [seed('cairn-errant', 'wren', 'party'), seed('cairn-errant', 'bandit', 'enemies')] },
      { type: 'START' },
      { type: 'REMOVE_COMBATANT', combatantId: 'bandit', reason: 'runs off into the woods' },
    ];
    const { rules, input, steps } = record('cairn-errant', events);
    const replayed = replayEncounter(rules, input, steps);
    const bandit = replayed.summary.flatMap((r) => r.combatants).filter((c) => c.id === 'bandit');
    expect(bandit.some((c) => c.down)).toBe(false);
    expect(bandit.some((c) => c.statuses.includes('left the fight (runs off into the woods)'))).toBe(true);

    // The app adds up the roster changes stored with each event; they carry why a row left.
    const engine = EncounterEngine.create(rules, input);
    const fold = new SummaryFold(rules, input, true);
    for (const step of steps) {
      const before = engine.view();
      engine.step(step.event);
      fold.add({ ...step, roster: rosterChange(rules, before, engine.view()) });
    }
    expect(fold.result(engine.view())).toEqual(replayed);
  });

  it('a roster change stored before rows said why they left still counts a removal as going down', () => {
    const { rules, input, steps } = enigmaFight([{ type: 'REMOVE_COMBATANT', combatantId: 'goblin', reason: 'flees' }]);
    const engine = EncounterEngine.create(rules, input);
    const fold = new SummaryFold(rules, input, true);
    for (const step of steps) {
      const before = engine.view();
      engine.step(step.event);
      const roster = rosterChange(rules, before, engine.view());
      for (const row of roster.rows) delete row.out;
      fold.add({ ...step, roster });
    }
    expect(figures(fold.result(engine.view()).summary, 1, 'goblin')).toMatchObject({ down: true });
  });

  it("gives the same summary and final view from a ruleset's roster as from its full view", () => {
    const { rules, input, steps } = record('enigma', [
      { type: 'ADD_COMBATANTS', combatants: [seed('enigma', 'berrik', 'party', { endure: 6 }), seed('enigma', 'lotty', 'party'), seed('enigma', 'goblin', 'gm', { endure: 6 }), seed('enigma', 'boss', 'gm', { namedNpc: true })] },
      { type: 'START' },
      { type: 'ATTACK', attackerId: 'berrik', targetId: 'goblin', mode: 'melee', sight: 'clear', damage: 'full', attackRoll: app(8), defenceRoll: app(1) },
      { type: 'APPLY_DAMAGE', targetId: 'berrik', amount: 6, source: 'a trap' },
      { type: 'RESOLVE_PERIL', combatantId: 'berrik', choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Twisted Ankle', category: 'navigate', baseRoll: 2 } },
      { type: 'END_TURN' },
      { type: 'CHOOSE_NPC', combatantId: 'boss' },
      { type: 'HEAL', targetId: 'berrik', amount: 2, kind: 'other', source: 'a bandage' },
      { type: 'APPLY_DAMAGE', targetId: 'goblin', amount: 20, source: 'a rockfall' },
      { type: 'END_TURN' },
      { type: 'END_TURN' },
      { type: 'REMOVE_COMBATANT', combatantId: 'lotty', reason: 'runs for help' },
      { type: 'APPLY_DAMAGE', targetId: 'boss', amount: 3, source: 'a rockfall' },
      { type: 'END_COMBAT', outcome: 'the boss yields' },
    ]);
    expect(rules.roster).toBeDefined();
    const withRoster = replayEncounter(rules, input, steps);
    const withView = replayEncounter({ ...rules, roster: undefined }, input, steps);
    expect(withRoster.summary.length).toBeGreaterThan(1);
    expect(withRoster.summary.flatMap((r) => r.combatants).some((c) => c.taken > 0 && c.healed > 0)).toBe(true);
    expect(withRoster).toEqual(withView);
  });

  it('has no rounds while the encounter is still being prepared', () => {
    const { rules, input, steps } = record('enigma', [{ type: 'ADD_COMBATANTS', combatants: [seed('enigma', 'berrik', 'party')] }]);
    expect(summarize(rules, input, steps)).toEqual([]);
  });

  it('uses the stored log lines to find the actor, not lines written anew', () => {
    const { rules, input, steps } = enigmaFight([{ type: 'APPLY_DAMAGE', targetId: 'goblin', amount: 2, source: 'a rock' }]);
    const stored: ReplayStep[] = steps.map((s, i) => (i === steps.length - 1 ? { event: s.event, lines: [{ round: 1, kind: 'damage', text: 'Berrik threw it.', actorId: 'berrik' } satisfies LogLine] } : s));
    expect(figures(summarize(rules, input, stored), 1, 'berrik').dealt).toBe(2);
    expect(figures(summarize(rules, input, steps), 1, 'berrik').dealt).toBe(0);
  });

  it('Teams: damage comes off endurance and then health, and all of it counts', () => {
    const { rules, input, steps } = record('teams', [
      { type: 'ADD_COMBATANTS', combatants: [seed('teams', 'kestrel', 'party'), seed('teams', 'raider', 'gm')] },
      { type: 'START' },
      { type: 'SELECT_MEMBER', id: 'kestrel' },
      { type: 'APPLY_DAMAGE', targetId: 'raider', amount: 15, source: 'a fall' },
    ]);
    const { summary, view } = replayEncounter(rules, input, steps);
    const raider = view.order.find((c) => c.id === 'raider')!;
    expect(raider.stats!.find((s) => s.label === 'Endurance')!.value).toBe('0/12');
    expect(raider.health!.current).toBe(9);
    expect(figures(summary, 1, 'raider').taken).toBe(15);
  });

  it('Teams: a hit resolved by the defender\'s answer is credited to the attacker who asked the question', () => {
    const { rules, input, steps, engine } = record('teams', [
      { type: 'ADD_COMBATANTS', combatants: [seed('teams', 'kestrel', 'party', { strength: 6, martial: 2 }), seed('teams', 'raider', 'gm')] },
      { type: 'START' },
      { type: 'SELECT_MEMBER', id: 'kestrel' },
      { type: 'ATTACK', attackerId: 'kestrel', targetId: 'raider', attribute: 'strength', proficiency: 'martial', testRoll: app(6, 6), luckRoll: app(10) },
    ]);
    expect(engine.view().prompt).toMatchObject({ answer: 'DEFEND', subjectId: 'raider' });
    const event: GmEvent = { type: 'DEFEND', id: 'none' };
    steps.push({ event, lines: engine.apply(event) });
    const summary = summarize(rules, input, steps);
    const raider = figures(summary, 1, 'raider');
    expect(raider.taken).toBeGreaterThan(0);
    expect(figures(summary, 1, 'kestrel')).toMatchObject({ dealt: raider.taken, taken: 0 });
  });

  it('Thrum: counts Fatigue and Stress Loads taken, and the reset when combat ends is not healing', () => {
    const { rules, input, steps, engine } = record('thrum', [
      { type: 'ADD_COMBATANTS', combatants: [seed('thrum', 'ash', 'party'), seed('thrum', 'orc', 'foes')] },
      { type: 'START' },
      { type: 'ROLL_INITIATIVE', id: 'ash', roll: app(6, 6) },
      { type: 'ROLL_INITIATIVE', id: 'orc', roll: app(1, 1) },
      { type: 'END_TURN' },
      { type: 'END_TURN' },
    ]);
    expect(engine.view()).toMatchObject({ round: 1, activeId: 'ash' });
    for (const event of [
      { type: 'APPLY_LOAD', targetId: 'orc', load: 'stress', amount: 2, source: 'a howl' },
      { type: 'APPLY_LOAD', targetId: 'orc', load: 'fatigue', amount: 1, source: 'the cold' },
      { type: 'END_COMBAT', outcome: 'The orc flees' },
    ] as GmEvent[]) steps.push({ event, lines: engine.apply(event) });
    const summary = summarize(rules, input, steps);
    expect(summary.map((s) => [s.round, s.measure])).toEqual([[0, 'loads'], [1, 'loads']]);
    expect(figures(summary, 1, 'orc')).toMatchObject({ taken: 3, healed: 0, down: false });
    expect(engine.view().order.find((c) => c.id === 'orc')!.health!.current).toBe(0);
  });
});

describe('the ruleset\'s summary track', () => {
  it('a ruleset\'s own words for down count a combatant down; without them the common words do', () => {
    const { rules, input, steps } = record('enigma', [
      { type: 'ADD_COMBATANTS', combatants: [seed('enigma', 'berrik', 'party'), seed('enigma', 'goblin', 'gm')] },
      { type: 'START' },
      { type: 'APPLY_DAMAGE', targetId: 'goblin', amount: 1, source: 'a falling rock' },
    ]);
    // The stored roster changes, the last one saying the goblin is routed (a tag in a ruleset's own words).
    const engine = EncounterEngine.create(rules, input);
    const stored = steps.map((step) => {
      const before = engine.view();
      engine.step(step.event);
      return { ...step, roster: rosterChange(rules, before, engine.view()) };
    });
    stored.at(-1)!.roster.rows.find((row) => row.id === 'goblin')!.tags.push('Routed');
    const down = (track: typeof rules) => {
      const fold = new SummaryFold(track, input, true);
      for (const step of stored) fold.add(step);
      return figures(fold.result(engine.view()).summary, 1, 'goblin').down;
    };
    expect(down(rules)).toBe(false);
    expect(down({ ...rules, summary: { measure: 'damage', pools: [], down: /^routed\b/i } })).toBe(true);
  });
});

describe('who went down and who left', () => {
  it.each(RULESET_IDS)('%s: of those out of the fight at the end, the dead and defeated went down, the rest left and are said to', (rulesetId) => {
    let out = 0;
    for (let fightSeed = 1; fightSeed <= 4; fightSeed++) {
      const fight = generateFight(rulesetId, 8, 400, fightSeed, [], { type: 'END_COMBAT', outcome: 'over' });
      const { summary, view } = replayEncounter(fight.rules, fight.input, fight.events.map((event) => ({ event })));
      const totals = new Map(totalsOf(summary).map((t) => [t.id, t]));
      for (const c of view.order.filter((row) => row.status === 'removed')) {
        out += 1;
        const rounds = summary.flatMap((r) => r.combatants.filter((f) => f.id === c.id));
        const said = rounds.some((f) => f.statuses.some((status) => status.startsWith('left the fight')));
        if (c.dead || c.defeated) {
          expect(totals.get(c.id)!.downInRounds, `${c.name}: ${c.removedReason}`).not.toEqual([]);
          expect(said).toBe(false);
        } else if (totals.get(c.id)!.downInRounds.length === 0) expect(said, `${c.name}: ${c.removedReason}`).toBe(true);
      }
    }
    if (rulesetId !== 'enigma') expect(out).toBeGreaterThan(0);
  });
});

describe('the summary fold', () => {
  it.each(RULESET_IDS)('%s: events given a few at a time, asked between, end as one replay of them all', (rulesetId) => {
    const fight = generateFight(rulesetId, 8, 400, 7, [], { type: 'END_COMBAT', outcome: 'over' });
    const steps: ReplayStep[] = fight.events.map((event) => ({ event }));
    const whole = replayEncounter(fight.rules, fight.input, steps);
    const fold = new SummaryFold(fight.rules, fight.input);
    const asked: ReturnType<SummaryFold['result']>[] = [];
    for (const [index, step] of steps.entries()) {
      fold.add(step);
      // Asked after events of every kind, as the log screen asks after each GM action.
      if (index % 7 === 3) asked.push(fold.result());
    }
    expect(fold.count).toBe(steps.length);
    expect(fold.result()).toEqual(whole);
    // A result is a copy: what the fold did afterwards left the earlier answers as they were.
    const partial = replayEncounter(fight.rules, fight.input, steps.slice(0, 4));
    expect(asked[0]).toEqual(partial);
  });
});
