// The Enigma demo: two investigators against two goblins in a flooded archive. Shows alternating slots with the
// GM choosing an enemy, Escalation rising in round 2, a power, Mortal Peril answered with Survive and an injury,
// and a Rest that counts the injury down.
import type { GmEvent } from '../../encounter/types.ts';
import { typed, type DemoFight, type RulesetDemo } from '../demo.ts';

function attack(f: DemoFight, attacker: string, target: string, attackFace: number, defenceFace: number, ranged?: { distance: number }): GmEvent {
  return {
    type: 'ATTACK', attackerId: f.id(attacker), targetId: f.id(target), mode: ranged ? 'ranged' : 'melee',
    ...(ranged ? { distance: ranged.distance } : {}), sight: 'clear', damage: 'full', attackRoll: typed(attackFace), defenceRoll: typed(defenceFace),
  };
}

export const enigmaDemo: RulesetDemo = {
  name: 'Demo — Enigma: Nexus Nights',
  party: [
    { name: 'Berrik', sheet: { endure: 10, navigate: 8, glean: 6, attack: 10, influence: 6, manifest: 4, armoured: true, notes: 'Former dock warden. Carries a boat hook and a grudge.' } },
    { name: 'Mirah', sheet: { endure: 4, navigate: 8, glean: 10, attack: 8, influence: 8, manifest: 10, notes: 'Archivist who reads the Nexus. Knows Firebolt.' } },
  ],
  npcs: [{ name: 'Goblin', count: 2, sheet: { endure: 6, navigate: 6, glean: 6, attack: 8, influence: 4, manifest: 4, notes: 'Scavengers from the flooded stacks.' } }],
  session: { title: 'The Flooded Archive', recap: 'Goblins ambushed the party in the flooded archive. Mirah nearly drowned in the stacks and cracked her ribs; Berrik dragged her out.' },
  encounter: 'Ambush in the stacks',
  fight(f) {
    f.act({ type: 'START' });
    // Round 1: Berrik wades in, a goblin answers at the GM's slot, Mirah burns the first one down.
    f.act({ type: 'MOVE', spaces: 4, pauses: 0, note: 'through knee-deep water' });
    f.act(attack(f, 'Berrik', 'Goblin 1', 9, 2));
    f.act({ type: 'END_TURN' });
    f.act({ type: 'CHOOSE_NPC', combatantId: f.id('Goblin 2') });
    f.act(attack(f, 'Goblin 2', 'Mirah', 8, 1));
    f.act({ type: 'END_TURN' });
    f.act({ type: 'USE_POWER', power: 'Firebolt', cost: 2, note: 'a bolt of green fire across the water' });
    f.act({ type: 'APPLY_DAMAGE', targetId: f.id('Goblin 1'), amount: 5, source: "Mirah's Firebolt" });
    f.act({ type: 'END_TURN' });
    // Round 2, Escalation 2: the last goblin drives Mirah into Mortal Peril; she survives at a cost.
    f.act(attack(f, 'Berrik', 'Goblin 2', 7, 3));
    f.act(attack(f, 'Berrik', 'Goblin 2', 6, 5));
    f.act({ type: 'END_TURN' });
    f.act(attack(f, 'Goblin 2', 'Mirah', 6, 2));
    f.act(attack(f, 'Goblin 2', 'Mirah', 7, 3));
    f.act({
      type: 'RESOLVE_PERIL', combatantId: f.id('Mirah'), choice: 'survive', costText: 'her staff splinters',
      injury: { mode: 'new', name: 'Cracked Ribs', category: 'endure', baseRoll: 2 },
    });
    f.act({ type: 'END_TURN' });
    f.act(attack(f, 'Mirah', 'Goblin 2', 8, 3, { distance: 6 }));
    f.act({ type: 'END_COMBAT', outcome: 'Victory: the goblins are routed' });
  },
  recovery: (party) => [{ type: 'REST', characterId: party['Mirah']! }],
};
