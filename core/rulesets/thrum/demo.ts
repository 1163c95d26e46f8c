// The Thrum demo: two wanderers against husks on a ruined road. Shows initiative, Round Zero stances, attacks whose
// defence the GM reports and whose contested rolls are typed from physical dice, Frayed and failed Panic Rolls lowering a Stress Tolerance, and a Downtime
// that restores it.
import type { GmEvent } from '../../encounter/types.ts';
import { typed, type DemoFight, type RulesetDemo } from '../demo.ts';
import { contestDetailsOf } from './prompts.ts';

function attack(f: DemoFight, attacker: string, target: string, ability: string, load: { fatigue: number } | { stress: number }): GmEvent {
  const physical = 'fatigue' in load;
  return {
    type: 'ATTACK', attackerId: f.id(attacker), ability, attackType: physical ? 'physical' : 'mental', targets: [{ targetId: f.id(target) }],
    fatigue: physical ? load.fatigue : 0, stress: physical ? 0 : load.stress,
  };
}

/**
 * The defender's choice, then the contested roll the table rolled with physical dice (R-H11): 2d6 a side, and a d6
 * more per net Boon or Bane, as the prompt says. The demo's attacks all land: the attack's dice beat the defence's.
 */
function defend(f: DemoFight, defence: 'resilience' | 'evasion' | 'resolve', attackFaces: number[], defenceFaces: number[]): void {
  f.act({ type: 'DEFENSE_CHOICE', defence: defence });
  const details = contestDetailsOf(f.view.prompt);
  const sized = (faces: number[], count = 2) => typed(...Array.from({ length: count }, (_, i) => faces[i % faces.length]!));
  f.act({ type: 'DEFENSE_RESULT', attackRoll: sized(attackFaces, details?.attackDice), defenceRoll: sized(defenceFaces, details?.defenceDice) });
}

export const thrumDemo: RulesetDemo = {
  name: 'Demo — Thrum: Hollow Roads',
  party: [
    {
      name: 'Ash',
      sheet: {
        resilience: 2, evasion: 1, resolve: 1, highestArtModifier: 2, initiativeModifier: 1, speed: 5,
        baseFatigueTolerance: 6, fatigueTolerance: 6, baseStressTolerance: 5, stressTolerance: 5, notes: 'Road-warden with a maul.',
      },
    },
    {
      name: 'Vesper',
      sheet: {
        resilience: 0, evasion: 2, resolve: 3, highestArtModifier: 3, initiativeModifier: 2, speed: 6,
        baseFatigueTolerance: 4, fatigueTolerance: 4, baseStressTolerance: 6, stressTolerance: 6, notes: 'Hums the old songs that unmake husks.',
      },
    },
  ],
  npcs: [{
    name: 'Husk', count: 2,
    sheet: { resilience: 1, highestArtModifier: 1, speed: 4, baseFatigueTolerance: 4, fatigueTolerance: 4, baseStressTolerance: 3, stressTolerance: 3, notes: 'Hollowed travellers.' },
  }],
  session: { title: 'The Ruined Road', recap: 'Two husks rose from the ruins. Ash and Vesper put them down, but the husk’s wail shook Vesper: her Stress Tolerance dropped to 5.' },
  encounter: 'Ruins',
  fight(f) {
    f.act({ type: 'START' });
    const initiative: [string, [number, number]][] = [['Ash', [5, 4]], ['Vesper', [3, 3]], ['Husk 1', [4, 2]], ['Husk 2', [2, 1]]];
    for (const [name, faces] of initiative) f.act({ type: 'ROLL_INITIATIVE', combatantId: f.id(name), roll: typed(...faces) });
    // Round Zero: a first stance each, in initiative order.
    for (const stance of ['Guarded', 'Focused', 'Aggressive', 'Aggressive']) {
      f.act({ type: 'SET_STANCE', stance });
      f.act({ type: 'END_TURN' });
    }
    // Round 1.
    f.act(attack(f, 'Ash', 'Husk 1', 'Hammer Blow', { fatigue: 3 }));
    defend(f, 'resilience', [6, 5], [2, 3]);
    f.act({ type: 'END_TURN' });
    f.act(attack(f, 'Vesper', 'Husk 1', 'Dread Whisper', { stress: 4 }));
    defend(f, 'resolve', [5, 4], [1, 3]);
    f.act({ type: 'END_TURN' });
    f.act({ type: 'PANIC_ROLL', combatantId: f.id('Husk 1'), roll: typed(2, 1) });
    f.act({ type: 'END_TURN' });
    f.act(attack(f, 'Husk 2', 'Vesper', 'Hollow Wail', { stress: 7 }));
    defend(f, 'resolve', [4, 4], [2, 2]);
    f.act({ type: 'END_TURN' });
    // Round 2.
    f.act(attack(f, 'Ash', 'Husk 2', 'Hammer Blow', { fatigue: 5 }));
    defend(f, 'resilience', [6, 6], [1, 2]);
    f.act({ type: 'END_TURN' });
    f.act({ type: 'PANIC_ROLL', combatantId: f.id('Vesper'), roll: typed(1, 2) });
    f.act({ type: 'END_COMBAT', outcome: 'Victory: the husks crumble to dust' });
  },
  recovery: (party) => [{ type: 'DOWNTIME', characterId: party['Vesper']!, days: 1 }],
};
