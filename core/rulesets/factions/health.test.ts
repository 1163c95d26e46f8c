// R-F20's default: "in Murdham, health equals STR" (RULES.md §3.4 step 12). Maximum health follows STR in the
// fight, on the campaign's recovery card and in what a fight carries to the next; plain HP reads the sheet's maximum.
import { describe, expect, it } from 'vitest';
import { applyEvent } from '../../ledger/testing.ts';
import type { CampaignWorld } from '../../ledger/types.ts';
import { defaultOptions, resolveOptions } from '../options.ts';
import { normalizeSheet } from '../sheet.ts';
import { factionsRecovery } from './ledger.ts';
import { factionsOptions } from './options.ts';
import { combatantFromSeed } from './rules.ts';
import { factionsSheet } from './sheet.ts';
import { damage, fight, melee, seed, who } from './testing.ts';

const murdham = defaultOptions(factionsOptions);
const plainHp = { ...murdham, healthModel: 'hpZeroIncapacitates' };

describe('R-F20: "health equals STR"', () => {
  it('a STR 14 character with an untouched sheet has 14 of 14 health, not the sheet\'s 10', () => {
    const c = combatantFromSeed(seed('hero', 'party', { str: 14 }), 'party', murdham);
    expect([c.health, c.healthMax]).toEqual([14, 14]);
  });

  it('a STR 6 character has 6 of 6 health, whatever the sheet\'s maximum field says', () => {
    const c = combatantFromSeed(seed('hero', 'party', { str: 6, healthMax: 12, health: 12 }), 'party', murdham);
    expect([c.health, c.healthMax]).toEqual([6, 6]);
  });

  it('a wound on the sheet (health below its maximum field) is kept, within STR', () => {
    const c = combatantFromSeed(seed('hero', 'party', { str: 14, healthMax: 10, health: 7 }), 'party', murdham);
    expect([c.health, c.healthMax]).toEqual([7, 14]);
  });

  it('with plain HP (the R-F20 alternative) the sheet\'s maximum health is read', () => {
    const c = combatantFromSeed(seed('hero', 'party', { str: 14, healthMax: 9, health: 9 }), 'party', plainHp);
    expect([c.health, c.healthMax]).toEqual([9, 9]);
  });

  it('in the fight: a hit of 10 on STR 14 is not "at least the maximum", it incapacitates (half or more of 14 lost)', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { str: 14, armour: 0, weaponDie: 12 })]);
    e.apply(melee('hero', 'foe', { die: 12 }));
    e.apply({ type: 'REACT', reaction: 'none' });
    e.apply(damage(10));
    const foe = who(e, 'foe');
    expect([foe.health, foe.healthMax, foe.dead, foe.incapacitated]).toEqual([4, 14, false, true]);
  });

  it('on the campaign: a fresh STR 13 character shows 13/13 and the GM may set health up to 13', () => {
    const character = { id: 'b', name: 'Balthasar', role: 'pc' as const, sheet: normalizeSheet(factionsSheet, { str: 13 }), state: {}, records: [] };
    const world: CampaignWorld = { day: 1, options: resolveOptions(factionsOptions, {}), party: {}, characters: [character] };
    expect(factionsRecovery.card(world, 'b').stats.find((s) => s.label === 'Health')?.value).toBe('13/13');
    const carried = { ...character, state: { health: 5 } };
    const after = applyEvent(factionsRecovery, { ...world, characters: [carried] }, { type: 'SET_HEALTH', characterId: 'b', health: 12 });
    expect(after.world.characters[0]!.state['health']).toBe(12);
  });
});
