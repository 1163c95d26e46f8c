// The Teams demo: two caravan guards against raiders at a toll bridge. Shows teams sending a member in turn, attack
// tests with the luck die, the defence window (a parry, taking the hit), a death-risk luck test, and a Rest.
import type { GmEvent } from '../../encounter/types.ts';
import { typed, type DemoFight, type RulesetDemo } from '../demo.ts';

function attack(f: DemoFight, attacker: string, target: string, attribute: 'strength' | 'dexterity', proficiency: 'martial' | 'finesse', test: [number, number], luck: number): GmEvent {
  return { type: 'ATTACK', attackerId: f.id(attacker), targetId: f.id(target), attribute, proficiency, testRoll: typed(...test), luckRoll: typed(luck) };
}

export const teamsDemo: RulesetDemo = {
  name: 'Demo — Teams: The Iron Pact',
  party: [
    {
      name: 'Kestrel',
      sheet: {
        strength: 8, combatSkill: 8, martial: 1, evasion: 7, physicalDeflection: 1,
        weaponName: 'Spear', weaponDamage: 4, weaponCritDamage: 8, weaponCritThreshold: 19, notes: 'Caravan guard of the Iron Pact.',
      },
    },
    {
      name: 'Odo',
      sheet: {
        dexterity: 8, finesse: 2, weaponName: 'Shortbow', weaponAttributes: 'dexterity', weaponProficiencies: 'finesse',
        weaponDamage: 3, weaponCritDamage: 6, weaponDelivery: 'projectile', weaponMetal: false, notes: 'Scout; never misses a toll.',
      },
    },
  ],
  npcs: [{
    name: 'Raider', count: 2,
    sheet: { enduranceMax: 8, endurance: 8, healthMax: 6, health: 6, weaponName: 'Axe', weaponDamage: 3, weaponDamageType: 'slashing', notes: 'Bridge raiders in stolen mail.' },
  }],
  session: { title: 'The Toll Bridge', recap: 'Raiders held the toll bridge. Kestrel and Odo broke them; one raider died, the other fled into the woods. Odo took an axe across the ribs.' },
  encounter: 'Toll bridge',
  fight(f) {
    f.act({ type: 'START' });
    f.act({ type: 'SELECT_MEMBER', combatantId: f.id('Kestrel') });
    f.act({ type: 'ACTION', kind: 'move' });
    f.act(attack(f, 'Kestrel', 'Raider 1', 'strength', 'martial', [3, 4], 12));
    f.act({ type: 'DEFEND', defence: 'parry', slot: 'weapon' });
    f.act({ type: 'END_TURN' });
    f.act({ type: 'SELECT_MEMBER', combatantId: f.id('Raider 2') });
    f.act(attack(f, 'Raider 2', 'Odo', 'strength', 'martial', [5, 4], 7));
    f.act({ type: 'DEFEND', defence: 'none' });
    f.act({ type: 'END_TURN' });
    f.act({ type: 'SELECT_MEMBER', combatantId: f.id('Odo') });
    f.act(attack(f, 'Odo', 'Raider 1', 'dexterity', 'finesse', [6, 3], 8));
    f.act({ type: 'DEFEND', defence: 'none' });
    f.act({ type: 'LUCK_TEST', luckRoll: typed(4) });
    f.act({ type: 'END_TURN' });
    f.act({ type: 'REMOVE_COMBATANT', combatantId: f.id('Raider 2'), reason: 'throws down the axe and flees into the woods' });
    f.act({ type: 'END_COMBAT', outcome: 'Victory: the bridge is clear' });
  },
  recovery: (party) => [{ type: 'REST', characterId: party['Odo']! }],
};
