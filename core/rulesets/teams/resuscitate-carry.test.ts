// Resuscitate at zero health, in the fight and after it (RULES.md §2.3, §2.6). Source: "Resuscitate | (Two actions)
// Go prone, then make a test to return someone to consciousness", and "on Clementine's turn she managed to
// resuscitate Roland and return him to consciousness ... the players may decide to give Roland the next turn."
// Resuscitate restores no health: the revived character is conscious at zero health, and the campaign's carry, its
// ledger and the next fight keep them so.
import { describe, expect, it } from 'vitest';
import { applyEvent, refusalOf } from '../../ledger/testing.ts';
import type { CampaignWorld } from '../../ledger/types.ts';
import { resolveOptions } from '../options.ts';
import { normalizeSheet } from '../sheet.ts';
import { teamsEncounter } from './encounter.ts';
import { app, encounter, fight, pick, seed, who } from './testing.ts';
import { teamsRecovery } from './ledger.ts';
import { teamsOptions } from './options.ts';
import { teamsSheet } from './sheet.ts';

/** Roland drops to exactly zero health (no death risk), Clementine resuscitates him, and the GM ends the fight. */
function revivedAtZero() {
  const e = fight([seed('roland', 'party', {}, { characterId: 'pc-roland' }), seed('clementine', 'party', {}, { characterId: 'pc-clementine' })], [seed('g1', 'gm')]);
  pick(e, 'roland');
  e.apply({ type: 'END_TURN' });
  pick(e, 'g1');
  e.apply({ type: 'APPLY_DAMAGE', targetId: 'roland', amount: 12, source: "G1's club" }); // endurance 12 → 0
  e.apply({ type: 'APPLY_DAMAGE', targetId: 'roland', amount: 12, source: "G1's club" }); // health 12 → 0, no more than was left
  expect(who(e, 'roland')).toMatchObject({ health: 0, conscious: false, dead: false });
  e.apply({ type: 'END_TURN' });
  pick(e, 'clementine');
  e.apply({ type: 'ACTION', kind: 'resuscitate', targetId: 'roland', dice: [6, 6], bonus: 2, testRoll: app(6, 5), luckRoll: app(8) }); // 13 ≥ 12 missing
  expect(who(e, 'roland')).toMatchObject({ health: 0, conscious: true });
  e.apply({ type: 'END_COMBAT', outcome: 'The guards fled.' });
  return e;
}

const rolandState = () => {
  const carry = teamsEncounter.consequences!(revivedAtZero().snapshot).carry!;
  return carry.find((c) => c.characterId === 'pc-roland')!.state;
};

describe('"return someone to consciousness": conscious at zero health, in the fight and after it', () => {
  it('the carry writes him conscious at zero health', () => {
    expect(rolandState()).toMatchObject({ health: 0, unconscious: false });
  });

  it('the next fight starts with him conscious, and his team may give him a turn', () => {
    const carried = teamsEncounter.carriedIn!(rolandState(), []);
    const next = encounter();
    next.apply({ type: 'ADD_COMBATANTS', combatants: [seed('roland', 'party', {}, { characterId: 'pc-roland', carried }), seed('g2', 'gm')] });
    next.apply({ type: 'START' });
    expect(who(next, 'roland')).toMatchObject({ health: 0, conscious: true });
    pick(next, 'roland');
    expect(next.view().activeId).toBe('roland');
  });

  it('the ledger shows him conscious and Wake has nothing to do', () => {
    const world: CampaignWorld = {
      day: 1, options: resolveOptions(teamsOptions, {}), party: {},
      characters: [{ id: 'pc-roland', name: 'Roland', role: 'pc', sheet: normalizeSheet(teamsSheet, {}), state: rolandState(), records: [] }],
    };
    expect(teamsRecovery.card(world, 'pc-roland').stats.find((s) => s.label === 'Condition')!.value).toBe('Conscious');
    expect(refusalOf(teamsRecovery, world, { type: 'WAKE', characterId: 'pc-roland' })).toBe('Roland is already conscious.');
    // Resting keeps him conscious, with his pools back.
    const rested = applyEvent(teamsRecovery, world, { type: 'REST', characterId: 'pc-roland' });
    expect(rested.world.characters[0]!.state).toMatchObject({ health: 12, unconscious: false });
  });

  it('a sheet at zero health with no carried consciousness still starts unconscious', () => {
    const next = encounter();
    next.apply({ type: 'ADD_COMBATANTS', combatants: [seed('roland', 'party', { health: 0 }), seed('g2', 'gm')] });
    expect(who(next, 'roland').conscious).toBe(false);
  });

  it('"reduced to zero health, they immediately become unconscious": more damage at zero health knocks him out again', () => {
    const e = fight([seed('roland', 'party'), seed('clementine', 'party')], [seed('g1', 'gm')]);
    pick(e, 'roland');
    e.apply({ type: 'END_TURN' });
    pick(e, 'g1');
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'roland', amount: 12, source: "G1's club" });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'roland', amount: 12, source: "G1's club" });
    e.apply({ type: 'END_TURN' });
    pick(e, 'clementine');
    e.apply({ type: 'ACTION', kind: 'resuscitate', targetId: 'roland', dice: [6, 6], bonus: 2, testRoll: app(6, 5), luckRoll: app(8) });
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'roland', amount: 1, source: 'a stray arrow' });
    expect(who(e, 'roland')).toMatchObject({ health: 0, conscious: false });
    const lines = e.apply({ type: 'LUCK_TEST', luckRoll: app(15) });
    expect(lines[0]!.text).toContain('cheats death, unconscious at zero health');
    expect(who(e, 'roland')).toMatchObject({ conscious: false, dead: false });
  });
});
