// Late arrivals during the surprise round (RULES.md §2.2 rule 6). Source: "the team with the benefit of surprise gets
// to take a whole round where only their team may take actions. After this round, teams will alternate taking turns
// as normal." A newcomer on the surprising team acts in round 0; one on any other team waits for round 1 (unless it
// "cannot be surprised"), and cannot react until then (R-T5). The log says which.
import { describe, expect, it } from 'vitest';
import { attack, encounter, pick, seed, who } from './testing.ts';

/** The goblins surprise Roland; nobody has acted yet. */
function ambush(options: Record<string, string | number | boolean> = {}) {
  const e = encounter(options);
  e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('roland', 'party'), seed('ga', 'gm')] });
  e.apply({ type: 'DECLARE_SURPRISE', team: 'gm' });
  e.apply({ type: 'START' });
  expect(e.view().round).toBe(0);
  return e;
}

const choices = (e: ReturnType<typeof ambush>) => e.view().prompt!.choices.map((c) => c.id);

describe('"only their team may take actions": late arrivals in the surprise round', () => {
  it('a newcomer on the surprising team takes a turn in the surprise round', () => {
    const e = ambush();
    const [line] = e.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('gb', 'gm') });
    expect(line!.text).toBe('Gb arrives late and joins Enemies; they may be picked at its next go.');
    expect(choices(e)).toEqual(['ga', 'gb']);
    pick(e, 'gb');
    e.apply({ type: 'END_TURN' });
    expect(e.view().round).toBe(0);
  });

  it('a newcomer on the surprised team waits for round 1, and the log says so instead of "picked at its next go"', () => {
    const e = ambush();
    const [line] = e.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('petra', 'party') });
    expect(line!.text).toBe('Petra arrives late and joins Party; it is the surprise round, so they act from round 1 and cannot react until then (R-T5).');
    expect(e.view().order.find((c) => c.id === 'petra')!.tags).toContain('surprised');
    expect(choices(e)).toEqual(['ga']);
    pick(e, 'ga');
    // R-T5: no defence window for her: the hit lands at once.
    e.apply(attack('ga', 'petra', [6, 6], 5, { proficiency: 'none' }));
    expect(e.view().prompt?.answer).not.toBe('DEFEND');
    e.apply({ type: 'END_TURN' });
    expect(e.view().round).toBe(1);
    expect(choices(e)).toEqual(['roland', 'petra']);
  });

  it('with R-T5 off the sentence drops the reaction clause; a newcomer who cannot be surprised acts at once', () => {
    const lenient = ambush({ surprisedCannotReact: false });
    expect(lenient.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('petra', 'party') })[0]!.text)
      .toBe('Petra arrives late and joins Party; it is the surprise round, so they act from round 1.');
    const e = ambush();
    const [line] = e.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('clementine', 'party', { unsurprisable: true }) });
    expect(line!.text).toBe('Clementine arrives late and joins Party; they may be picked at its next go.');
    expect(who(e, 'clementine').unsurprisable).toBe(true);
    // The go had already passed to the goblins (Party had nobody able to act); after it, Party's go is hers
    // (rule 6: "the initiative of the teams are compared as normal during the surprise round").
    expect(choices(e)).toEqual(['ga']);
    pick(e, 'ga');
    e.apply({ type: 'END_TURN' });
    expect(e.view().round).toBe(0);
    expect(choices(e)).toEqual(['clementine']);
  });
});
