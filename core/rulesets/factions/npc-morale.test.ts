// R-F8 across fights: "those who pass aren't subject to morale for the remainder of the stretch" — NPCs too. A fight's
// end keeps, per NPC template, the names of its NPCs that ended immune; the next fight's NPCs of that template start
// immune; the end of the stretch (the ledger's END_STRETCH) clears it.
import { describe, expect, it } from 'vitest';
import { applyEvent, refusalOf } from '../../ledger/testing.ts';
import type { CampaignWorld, LedgerCharacter } from '../../ledger/types.ts';
import { resolveOptions } from '../options.ts';
import { normalizeSheet } from '../sheet.ts';
import { factionsEncounter } from './encounter.ts';
import { factionsRecovery } from './ledger.ts';
import { factionsOptions } from './options.ts';
import { factionsSheet } from './sheet.ts';
import { app, fight, seed, who } from './testing.ts';

const bandit = (id: string, party: Record<string, unknown> = {}) => {
  const carried = factionsEncounter.npcCarriedIn!(party, 'tpl-bandit');
  return seed(id, 'gm', {}, { characterId: 'tpl-bandit', ...(Object.keys(carried).length ? { carried } : {}) });
};

/** The hero kills one of two bandits; the round ends, and the bandits' group (1 of 2 left) checks morale. */
function banditsHalved(party: Record<string, unknown> = {}) {
  const e = fight([seed('hero', 'party', { wit: 15 }), seed('ally', 'party'), bandit('foe', party), bandit('imp', party)]);
  e.apply({ type: 'APPLY_DAMAGE', targetId: 'imp', amount: 10, source: 'a spear', byId: 'hero' });
  e.apply({ type: 'END_TURN' });
  e.apply({ type: 'PASS' });
  e.apply({ type: 'PASS' });
  return e;
}

describe('an NPC\'s morale immunity lasts "for the remainder of the stretch" (R-F8)', () => {
  it('the fight\'s end keeps the template of an NPC that passed, with its name', () => {
    const e = banditsHalved();
    expect(e.view().prompt?.answer).toBe('MORALE_ROLL');
    e.apply({ type: 'MORALE_ROLL', roll: app(2) });
    expect(who(e, 'foe').moraleImmune).toBe(true);
    expect(factionsEncounter.consequences!(e.snapshot).party).toBeNull(); // nothing is written before the end
    e.apply({ type: 'END_COMBAT', outcome: 'the bandit yields the road' });
    expect(factionsEncounter.consequences!(e.snapshot).party).toEqual({ 'tpl-bandit': { moraleImmune: 'Foe' } });
  });

  it('an NPC that did not pass, or died, keeps nothing', () => {
    const e = banditsHalved();
    e.apply({ type: 'MORALE_ROLL', roll: app(19) });
    e.apply({ type: 'MORALE_OUTCOME', outcome: 'retreat' });
    if (e.view().phase !== 'ended') e.apply({ type: 'END_COMBAT', outcome: 'the bandits are gone' });
    expect(factionsEncounter.consequences!(e.snapshot).party).toEqual({});
    // One who passed and was then killed is not immune for anything.
    const killed = banditsHalved();
    killed.apply({ type: 'MORALE_ROLL', roll: app(2) });
    killed.apply({ type: 'APPLY_DAMAGE', targetId: 'foe', amount: 10, source: 'a spear' });
    expect(who(killed, 'foe')).toMatchObject({ dead: true, moraleImmune: true });
    if (killed.view().phase !== 'ended') killed.apply({ type: 'END_COMBAT', outcome: 'no bandit is left' });
    expect(factionsEncounter.consequences!(killed.snapshot).party).toEqual({});
  });

  it('the next fight of the stretch starts that template\'s NPCs immune: no morale check when the group is halved again', () => {
    const party = { 'tpl-bandit': { moraleImmune: 'Foe' }, escalation: null };
    const e = banditsHalved(party);
    expect(who(e, 'foe').moraleImmune).toBe(true);
    expect(e.view().prompt?.answer).not.toBe('MORALE_ROLL');
    // A template the campaign keeps nothing for starts fresh.
    expect(factionsEncounter.npcCarriedIn!(party, 'tpl-wolf')).toEqual({});
  });
});

describe('the end of the stretch clears the NPCs\' immunity (R-F8)', () => {
  const member = (id: string, name: string, state: Record<string, unknown> = {}): LedgerCharacter => ({ id, name, role: 'pc', sheet: normalizeSheet(factionsSheet, {}), state, records: [] });
  const world = (characters: LedgerCharacter[], party: Record<string, unknown>): CampaignWorld => ({ day: 4, options: resolveOptions(factionsOptions, {}), party, characters });
  const kept = { 'tpl-bandit': { moraleImmune: 'Foe, Bandit 3' }, 'tpl-wolf': { moraleImmune: 'Wolf' }, escalation: null };

  it('with a PC\'s own flag: both lapse in one entry', () => {
    const { log, change } = applyEvent(factionsRecovery, world([member('s', 'Sybilla', { moraleImmune: true })], kept), { type: 'END_STRETCH', characterId: 's' });
    expect(log).toEqual([
      'The stretch ends for Sybilla (R-F8): immunity from the passed morale check lapses.',
      'The stretch ends for the NPCs (R-F8): immunity from the passed morale check lapses for Foe, Bandit 3, Wolf.',
    ]);
    expect(change.party).toEqual({ escalation: null });
  });

  it('a PC with no flag of its own still ends it for the NPCs; the whole party ends it once', () => {
    const w = world([member('h', 'Hild'), member('o', 'Odo')], kept);
    expect(factionsRecovery.partyStats!(w)).toEqual([{ label: 'NPCs immune to morale (stretch)', value: 'Foe, Bandit 3, Wolf' }]);
    const { log, change, world: after } = applyEvent(factionsRecovery, w, { type: 'PARTY', action: { type: 'END_STRETCH' }, characterIds: ['h', 'o'] });
    expect(log).toEqual([
      'The stretch ends for the NPCs (R-F8): immunity from the passed morale check lapses for Foe, Bandit 3, Wolf.',
      'Skipped: Odo has no morale flag to clear: no morale check was passed or failed this stretch.',
    ]);
    expect(change.party).toEqual({ escalation: null });
    expect(factionsRecovery.partyStats!(after)).toEqual([]);
    expect(factionsEncounter.npcCarriedIn!(after.party, 'tpl-bandit')).toEqual({});
  });

  it('with nothing kept and no flag, it is still refused', () => {
    expect(refusalOf(factionsRecovery, world([member('h', 'Hild')], { escalation: null }), { type: 'END_STRETCH', characterId: 'h' })).toBe(
      'Hild has no morale flag to clear: no morale check was passed or failed this stretch.',
    );
  });
});
