// The Factions (Murdham) demo: two travellers against bandits at a crossroads. Shows the initiative holder choosing
// the first faction, automatic hits with rolled damage, a counter resolved in order, the fight ending when one
// faction is left, the durability rolls after it, and the damaged shield repaired between sessions.
import type { GmEvent } from '../../encounter/types.ts';
import { typed, type DemoFight, type RulesetDemo } from '../demo.ts';
import { durabilityDetailsOf } from './encounter.ts';

const melee = (f: DemoFight, attacker: string, target: string): GmEvent => ({ type: 'ATTACK', attackerId: f.id(attacker), targetIds: [f.id(target)], kind: 'melee' });

export const factionsDemo: RulesetDemo = {
  name: 'Demo — Factions: Murdham Nights',
  party: [
    { name: 'Sybilla', sheet: { str: 12, healthMax: 12, health: 12, agi: 13, wit: 11, armour: 1, weaponDie: 8, hasShield: true, notes: 'Hedge knight with a dented shield.' } },
    { name: 'Tobin', sheet: { str: 9, healthMax: 9, health: 9, agi: 14, wit: 12, weaponDie: 6, notes: 'Pedlar, quicker with a knife than a bargain.' } },
  ],
  npcs: [{ name: 'Bandit', count: 2, sheet: { str: 8, healthMax: 8, health: 8, agi: 9, wit: 8, weaponDie: 6, notes: 'Crossroads cutthroats.' } }],
  session: { title: 'The Crossroads', recap: 'Bandits waylaid the party at the crossroads. Both went down in the first round; Sybilla’s shield was damaged and Tobin took a cut.' },
  encounter: 'Crossroads',
  fight(f) {
    f.act({ type: 'SET_INITIATIVE', faction: 'party' });
    f.act({ type: 'START' });
    f.act({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    f.act({ type: 'SELECT_CHARACTER', combatantId: f.id('Sybilla') });
    f.act(melee(f, 'Sybilla', 'Bandit 1'));
    f.act({ type: 'REACT', reaction: 'counter' });
    f.act({ type: 'RESOLVE_ATTACK', damageRoll: typed(5), counterDamageRoll: typed(6) });
    f.act({ type: 'END_TURN' });
    f.act({ type: 'SELECT_CHARACTER', combatantId: f.id('Bandit 2') });
    f.act(melee(f, 'Bandit 2', 'Tobin'));
    f.act({ type: 'REACT', reaction: 'none' });
    f.act({ type: 'RESOLVE_ATTACK', damageRoll: typed(4) });
    f.act({ type: 'END_TURN' });
    f.act({ type: 'SELECT_CHARACTER', combatantId: f.id('Tobin') });
    f.act(melee(f, 'Tobin', 'Bandit 2'));
    f.act({ type: 'RESOLVE_ATTACK', damageRoll: typed(6) });
    // Both bandits are incapacitated: the fight ends itself and asks for each used item's durability roll.
    f.act({ type: 'END_TURN' });
    // Sybilla's shield fails its roll; everything else holds.
    for (let prompt = f.view.prompt; prompt?.answer === 'DURABILITY_RESULT'; prompt = f.view.prompt) {
      const shieldOfSybilla = prompt.subjectId === f.id('Sybilla') && durabilityDetailsOf(prompt)?.item === 'shield';
      f.act({ type: 'DURABILITY_RESULT', result: shieldOfSybilla ? 'damaged' : 'ok' });
    }
  },
  recovery: (party) => [{ type: 'REPAIR_GEAR', characterId: party['Sybilla']!, item: 'shield', note: 'the smith at Murdham, 2 silver' }],
};
