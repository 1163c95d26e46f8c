// Teams' order policy (RULES.md §2.2) through the event-sourced kernel: initiative, alternation, running out,
// revival, the surprise round, the blocking decisions, and replay from a persisted snapshot.
import { describe, expect, it } from 'vitest';
import { EncounterEngine, parseEvent, RuleRefusal } from '../../encounter/kernel.ts';
import type { GmEvent } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { promptAnswerEvent } from '../../encounter/prompt.ts';
import { teamsEncounter } from './encounter.ts';
import { activeName, app, attack, ctx, encounter, fight, pick, playRound, seed, teamPicking, turns, who } from './testing.ts';
import { teamsOptions } from './options.ts';

const players = (...ids: string[]) => ids.map((id) => seed(id, 'party'));
const guards = (...ids: string[]) => ids.map((id) => seed(id, 'gm'));

describe('setup and initiative (§2.2, R-T1)', () => {
  it('starts with the party and enemy teams, party first, and refuses a start with one team', () => {
    const e = encounter();
    expect(e.view().setup!.sides).toEqual([{ key: 'party', label: 'Party' }, { key: 'gm', label: 'Enemies' }]);
    e.apply({ type: 'ADD_COMBATANTS', combatants: players('roland') });
    expect(() => e.apply({ type: 'START' })).toThrow('Put combatants on at least two teams before starting.');
    expect(() => e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('x', 'town')] })).toThrow('X must join one of the teams: Party, Enemies.');
  });

  it('re-assigns members to teams added in setup', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [...players('roland'), ...guards('g1', 'baker')] });
    e.apply({ type: 'ADD_TEAM', key: 'town', label: 'Townsfolk' });
    expect(() => e.apply({ type: 'ADD_TEAM', key: 'town2', label: 'townsfolk' })).toThrow('There is already a team called townsfolk.');
    e.apply({ type: 'SET_TEAM', combatantId: 'baker', team: 'town' });
    expect(who(e, 'baker').team).toBe('town');
    expect(e.view().order.map((c) => [c.name, c.sideLabel])).toEqual([['Roland', 'Party'], ['G1', 'Enemies'], ['Baker', 'Townsfolk']]);
  });

  it('needs the attacked team when more than two teams are in the fight', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [...players('roland'), ...guards('g1')] });
    e.apply({ type: 'ADD_TEAM', key: 'town', label: 'Townsfolk' });
    expect(() => e.apply({ type: 'SET_INSTIGATOR', combatantId: 'roland' })).toThrow("Say which team Roland's action targets: there are 3 teams.");
    expect(() => e.apply({ type: 'SET_INSTIGATOR', combatantId: 'roland', attackedTeam: 'party' })).toThrow('Roland cannot start the fight against their own team.');
  });

  it('the GM sets the whole order when nobody clearly started it (R-T1)', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [...players('roland'), ...guards('g1')] });
    e.apply({ type: 'SET_TEAM_ORDER', teams: ['gm', 'party'] });
    e.apply({ type: 'START' });
    expect(e.view().prompt).toMatchObject({ answer: 'SELECT_MEMBER', choices: [{ id: 'g1', label: 'G1' }] });
    expect(() => e.apply({ type: 'SET_TEAM_ORDER', teams: ['party', 'gm'] })).toThrow('Teams, initiative and surprise are fixed once combat starts.');
  });
});

describe('team alternation (§2.2 rules 1–4)', () => {
  it('a team may only put forward its own eligible members', () => {
    const e = fight(players('roland', 'clementine'), guards('captain'));
    expect(() => pick(e, 'captain')).toThrow("It is Party's go: Captain is on Enemies.");
    pick(e, 'roland');
    expect(() => pick(e, 'clementine')).toThrow("Roland's turn is running: end it first.");
    e.apply({ type: 'END_TURN' });
    expect(() => pick(e, 'roland')).toThrow("It is Enemies' go: Roland is on Party.");
    pick(e, 'captain');
    e.apply({ type: 'END_TURN' });
    expect(() => pick(e, 'roland')).toThrow('Roland has already taken a turn this round.');
  });

  it('with three teams the cycle runs in initiative order and skips a team that ran out', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [...players('p1', 'p2'), ...guards('g1', 'g2'), seed('t1', 'gm')] });
    e.apply({ type: 'ADD_TEAM', key: 'town', label: 'Townsfolk' });
    e.apply({ type: 'SET_TEAM', combatantId: 't1', team: 'town' });
    e.apply({ type: 'START' });
    expect(playRound(e)).toEqual(['party', 'gm', 'town', 'party', 'gm']);
    expect(e.view().round).toBe(2);
  });

  it('R-T2 every round starts again with the first team (option: carry the cycle on)', () => {
    const first = fight(players('p1', 'p2', 'p3'), guards('g1', 'g2'));
    playRound(first); // P G P G P: the last turn was the party's
    expect(teamPicking(first)).toBe('party');
    const carry = fight(players('p1', 'p2', 'p3'), guards('g1', 'g2'), { roundStartTeam: 'continueCycle' });
    playRound(carry);
    expect(teamPicking(carry)).toBe('gm');
  });

  it('nobody able to act stalls the fight until someone is revived', () => {
    const e = fight(players('p1'), guards('g1'));
    e.apply({ type: 'OVERRIDE', targetId: 'p1', field: 'conscious', value: 0, note: 'sleep spell' });
    e.apply({ type: 'OVERRIDE', targetId: 'g1', field: 'conscious', value: 0, note: 'sleep spell' });
    expect(e.snapshot.matches({ running: 'stalled' })).toBe(true);
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('Nobody is able to take a turn.');
    e.apply({ type: 'OVERRIDE', targetId: 'g1', field: 'conscious', value: 1, note: 'wakes' });
    expect(e.view().prompt).toMatchObject({ answer: 'SELECT_MEMBER', choices: [{ id: 'g1' }] });
  });

  it('a late arrival joins its team and may be picked at its next go', () => {
    const e = fight(players('p1'), guards('g1'));
    turns(e, ['p1']);
    e.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('p2', 'party') });
    turns(e, ['g1']);
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['p2']);
  });

  it('removing the active combatant ends the turn and passes play on', () => {
    const e = fight(players('p1', 'p2'), guards('g1'));
    pick(e, 'p1');
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'p1', reason: 'flees' });
    expect(teamPicking(e)).toBe('gm');
    expect(e.view().order.find((c) => c.id === 'p1')).toMatchObject({ status: 'removed', removedReason: 'flees' });
  });
});

describe('revival and the end of combat (R-T4, R-T11)', () => {
  it('R-T4 someone revived after the round has ended simply acts in the next round', () => {
    const e = fight(players('p1', 'p2'), guards('g1'));
    e.apply({ type: 'OVERRIDE', targetId: 'p2', field: 'conscious', value: 0, note: 'stunned' });
    expect(turns(e, ['p1', 'g1'])).toEqual(['party', 'gm']);
    expect(e.view().round).toBe(2);
    e.apply({ type: 'OVERRIDE', targetId: 'p2', field: 'conscious', value: 1, note: 'comes round' });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['p1', 'p2']);
  });

  it('R-T11 the header counts the teams still standing; the GM ends the fight with an outcome', () => {
    const e = fight(players('p1'), guards('g1', 'g2'));
    expect(e.view().counters).toEqual([
      { key: 'teamCycle', label: 'Team cycle', value: '[Party] → Enemies' },
      { key: 'teamsStanding', label: 'Teams standing', value: 2 },
    ]);
    e.apply({ type: 'SET_OBJECTIVE', team: 'gm', text: 'hold the gate' });
    e.apply({ type: 'OVERRIDE', targetId: 'g1', field: 'dead', value: 1, note: 'slain' });
    e.apply({ type: 'OVERRIDE', targetId: 'g2', field: 'conscious', value: 0, note: 'knocked out' });
    expect(e.view().counters[1]).toEqual({ key: 'teamsStanding', label: 'Teams standing', value: 1 });
    const lines = e.apply({ type: 'END_COMBAT', outcome: 'The party holds the field' });
    expect(lines[0]!.text).toBe('Combat ends: The party holds the field. Endurance, health, stamina and focus stay as they are.');
    expect(e.view()).toMatchObject({ phase: 'ended', outcome: 'The party holds the field', allowed: [] });
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('This encounter has ended.');
  });

  it('the runner sees actions, reaction, pools and statuses of each combatant', () => {
    const e = fight(players('p1'), guards('g1'));
    pick(e, 'p1');
    e.apply({ type: 'ACTION', kind: 'move' });
    const p1 = e.view().order.find((c) => c.id === 'p1')!;
    expect(e.view().turn).toEqual({ actionsLeft: 2, actionsPerTurn: 3 });
    expect(p1).toMatchObject({ status: 'active', slot: 1, health: { label: 'Health', current: 12, max: 12 }, tags: ['moved', 'reaction ready'] });
    expect(p1.stats).toEqual(expect.arrayContaining([{ label: 'Endurance', value: '12/12' }, { label: 'Stamina', value: '4/4' }, { label: 'Focus', value: '4/4' }]));
    expect(p1.stats).toHaveLength(5); // no extended action under way
    expect(e.view().allowed).toEqual(expect.arrayContaining(['END_TURN', 'ATTACK', 'ACTION', 'FREE_ACTION', 'KILLING_STRIKE', 'APPLY_DAMAGE', 'HEAL', 'OVERRIDE']));
  });

  it('the runner shows the team cycle, actions and reaction left, every pool, harmed and bloodied, and extended actions', () => {
    const e = fight(players('p1'), guards('g1', 'g2'));
    pick(e, 'p1');
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'p1', amount: 14, source: 'a rockfall' });
    e.apply({ type: 'REACTION_TEST', reactorId: 'g1', reaction: 'dodge', difficulty: 5, against: 'the rockfall', testRoll: app(3, 3), luckRoll: app(4) });
    e.apply({ type: 'ACTION', kind: 'other', name: 'Reload', cost: 4 });
    const view = e.view();
    expect(view.counters[0]).toEqual({ key: 'teamCycle', label: 'Team cycle', value: '[Party] → Enemies' });
    expect(view.turn).toEqual({ actionsLeft: 0, actionsPerTurn: 3 });
    expect(view.order.find((c) => c.id === 'g1')!.tags).toContain('reaction spent');
    expect(view.order.find((c) => c.id === 'g1')!.stats).toContainEqual({ label: 'Stamina', value: '3/4' });
    const p1 = view.order.find((c) => c.id === 'p1')!;
    expect(p1.health).toEqual({ label: 'Health', current: 10, max: 12 });
    expect(p1.stats).toEqual([
      { label: 'Endurance', value: '0/12' },
      { label: 'Stamina', value: '4/4' },
      { label: 'Focus', value: '4/4' },
      { label: 'Cheat death', value: 'DC 10' },
      { label: 'Holding', value: 'Weapon' },
      { label: 'Reload', value: '3/4 actions' },
    ]);
    expect(p1.tags).toEqual(['harmed', 'bloodied', 'Reload 3/4', 'reaction ready']);
  });
});

describe('turn start and the blocking decisions (RULES.md §6.8)', () => {
  it('the runner answers every selection with the choice\'s answer: {type, combatantId}', () => {
    const e = fight(players('p1'), guards('g1'));
    const prompt = e.view().prompt!;
    expect(promptAnswerEvent(prompt, prompt.choices[0]!)).toEqual({ type: 'SELECT_MEMBER', combatantId: 'p1' });
    e.apply(parseEvent(teamsEncounter, promptAnswerEvent(prompt, prompt.choices[0]!)));
    expect(e.view().activeId).toBe('p1');
    expect(e.view().turn).toEqual({ actionsLeft: 3, actionsPerTurn: 3 });
  });

  it('a consciousness check blocks everything but its answer and overrides', () => {
    const e = fight(players('p1'), guards('g1'));
    pick(e, 'p1');
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'g1', amount: 18, source: 'falling rocks' });
    expect(e.snapshot.matches({ running: { interrupts: 'consciousnessCheck' } })).toBe(true);
    expect(e.view().allowed).toEqual(['CONSCIOUSNESS', 'OVERRIDE']);
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('G1 must Fortify or fall unconscious first.');
    expect(() => e.apply({ type: 'ACTION', kind: 'move' })).toThrow('G1 must Fortify or fall unconscious first.');
    expect(() => e.apply({ type: 'END_COMBAT', outcome: 'x' })).toThrow('G1 must Fortify or fall unconscious first.');
    const lines = e.apply({ type: 'OVERRIDE', targetId: 'g1', field: 'health', value: 12, note: 'misread' });
    expect(lines[0]!.text).toBe("GM override: G1's health set to 12 (misread).");
    expect(e.view().prompt).toBeNull();
    expect(e.view().activeId).toBe('p1');
  });

  it('refuses malformed payloads with a sentence', () => {
    expect(() => parseEvent(teamsEncounter, { type: 'ACTION', kind: 'dance' })).toThrow('That is not an action of the action table.');
    expect(() => parseEvent(teamsEncounter, { type: 'APPLY_DAMAGE', targetId: 'a', amount: 0, source: '' })).toThrow('An amount is at least 1.');
    expect(() => parseEvent(teamsEncounter, { type: 'FLY' })).toThrow(RuleRefusal);
    expect(() => parseEvent(teamsEncounter, { type: 'ACTION', kind: 'shortTask', dice: 'd7' })).toThrow('Write the test dice like d6+d4 (up to four dice).');
  });

  it('action forms cover the hand-entered events, and typed test dice are stored as sizes', () => {
    const forms = teamsEncounter.actionForms!;
    expect(forms.map((f) => f.type)).toEqual([
      'ADD_TEAM', 'SET_TEAM', 'SET_INSTIGATOR', 'SET_TEAM_ORDER', 'DECLARE_SURPRISE', 'SET_UNSURPRISABLE', 'SET_OBJECTIVE',
      'ATTACK', 'ACTION', 'FREE_ACTION', 'KILLING_STRIKE', 'REACTION_TEST', 'FIRE_READIED', 'APPLY_DAMAGE', 'EXTENDED', 'HEAL', 'OVERRIDE',
    ]);
    // Every event a person enters by hand has a form; the rest are prompt answers, the prep screen's own, or automatic.
    const byPrompt = ['SELECT_MEMBER', 'OPENING_ATTACK', 'DEFEND', 'CONSCIOUSNESS', 'LUCK_TEST'];
    const byPrepOrRunner = ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'START', 'END_TURN', 'ADD_LATE_COMBATANT', 'END_COMBAT'];
    const schemaTypes = (teamsEncounter.eventSchema as unknown as { unwrap(): { options: { shape: { type: { value: string } } }[] } }).unwrap().options.map((o) => o.shape.type.value);
    expect(schemaTypes.filter((t) => !forms.some((f) => f.type === t) && !byPrompt.includes(t) && !byPrepOrRunner.includes(t))).toEqual([]);
    // Team order typed in a form is stored as a list of keys.
    expect(parseEvent(teamsEncounter, { type: 'SET_TEAM_ORDER', teams: 'party, gm → town' })).toEqual({ type: 'SET_TEAM_ORDER', teams: ['party', 'gm', 'town'] });
    expect(() => parseEvent(teamsEncounter, { type: 'SET_TEAM_ORDER', teams: 'Party, GM' })).toThrow('A team key is up to 32 lower-case letters, digits or dashes.');
    const attackFields = forms.find((f) => f.type === 'ATTACK')!.fields;
    expect(attackFields.find((f) => f.key === 'nearbyIds')).toMatchObject({ kind: 'combatants', initial: 'none', optional: true });
    expect(attackFields.find((f) => f.key === 'interceptorIds')).toMatchObject({ kind: 'combatants', initial: 'none', optional: true });
    // What the runner sends when nobody is ticked parses, and means no stray pool and every ally may intercept.
    expect(parseEvent(teamsEncounter, { ...attack('a', 'b', [1, 1], 5), nearbyIds: [], interceptorIds: [] })).toMatchObject({ nearbyIds: [], interceptorIds: [] });
    for (const form of forms) expect(() => parseEvent(teamsEncounter, { type: form.type })).not.toThrow('is not an action this ruleset knows');
    expect(parseEvent(teamsEncounter, { type: 'ACTION', kind: 'shortTask', dice: 'D6 + d4' })).toMatchObject({ dice: [6, 4] });
  });
});

describe('event sourcing', () => {
  const events: GmEvent[] = [
    { type: 'ADD_COMBATANTS', combatants: [seed('roland', 'party'), seed('clementine', 'party'), seed('g1', 'gm', { physicalDeflection: 2 }), seed('g2', 'gm')] },
    { type: 'SET_INSTIGATOR', combatantId: 'clementine', attackedTeam: 'gm' },
    { type: 'START' },
    { type: 'SELECT_MEMBER', combatantId: 'roland' },
    { type: 'ACTION', kind: 'move' },
    { type: 'ACTION', kind: 'other', name: 'Reload', cost: 3 },
    { type: 'END_TURN' },
    { type: 'SELECT_MEMBER', combatantId: 'g1' },
    attack('g1', 'roland', [6, 6], 5),
    { type: 'DEFEND', defence: 'none' },
    { type: 'APPLY_DAMAGE', targetId: 'roland', amount: 2, source: 'trap' },
    { type: 'CONSCIOUSNESS', decision: 'fortify', testRoll: app(6, 4), luckRoll: app(3) },
    { type: 'END_TURN' },
    { type: 'SELECT_MEMBER', combatantId: 'clementine' },
    { type: 'OPENING_ATTACK', decision: 'waive' },
    attack('clementine', 'g1', [5, 5], 20),
  ];

  it('a persisted snapshot plus the tail replays to the same state as the full list', () => {
    const input = { options: defaultOptions(teamsOptions), carried: {} };
    const full = EncounterEngine.create(teamsEncounter, input);
    for (const event of events) full.apply(event);
    const head = EncounterEngine.create(teamsEncounter, input);
    for (const event of events.slice(0, 9)) head.apply(event);
    const persisted = JSON.parse(JSON.stringify(head.persisted()));
    const resumed = EncounterEngine.resume(teamsEncounter, input, persisted, events.slice(9));
    expect(resumed.snapshot.context).toEqual(full.snapshot.context);
    expect(resumed.view()).toEqual(full.view());
    expect(resumed.snapshot.value).toEqual(full.snapshot.value);
  });

  it('replaying the same events twice gives the same log', () => {
    const run = () => {
      const e = encounter();
      return events.flatMap((event) => e.apply(event).map((l) => l.text));
    };
    const lines = run();
    expect(run()).toEqual(lines);
    expect(lines).toContain('Combat starts. Initiative: Party → Enemies.');
  });
});

export { activeName, ctx };
