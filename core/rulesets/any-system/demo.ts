// The "Any system" demo (a D&D 5e table): four adventurers against a goblin ambush in an old mine. Shows a fixed
// entry (a rockfall at initiative 20), initiative rolled with a tie broken by the modifier, damage to several targets
// at once, an enemy dying at 0 HP, a wizard dropped and dying, a death save, concentration and its check, healing
// that wakes, an injury until a long rest, and the party's long rest after it.
import type { GmEvent } from '../../encounter/types.ts';
import { typed, type DemoFight, type RulesetDemo } from '../demo.ts';

const damage = (f: DemoFight, target: string, amount: number, source?: string): GmEvent =>
  ({ type: 'APPLY_DAMAGE', targetId: f.id(target), amount, ...(source ? { source } : {}) });

export const anySystemDemo: RulesetDemo = {
  name: 'Demo — Any system: The Old Mine (D&D 5e)',
  party: [
    { name: 'Brannoc', sheet: { hpMax: 44, hp: 44, tempHp: 0, ac: 18, initiativeModifier: 1, notes: 'Fighter 4; a longsword, a shield and a bad knee.' } },
    { name: 'Ilsa', sheet: { hpMax: 31, hp: 31, tempHp: 0, ac: 16, initiativeModifier: 0, notes: 'Cleric of the Dawn 4; Bless, Healing Word.' } },
    { name: 'Pip', sheet: { hpMax: 27, hp: 27, tempHp: 0, ac: 15, initiativeModifier: 4, notes: 'Rogue 4; sneak attack 2d6.' } },
    { name: 'Mirela', sheet: { hpMax: 22, hp: 22, tempHp: 0, ac: 12, initiativeModifier: 2, notes: 'Wizard 4; Burning Hands, Shield.' } },
  ],
  npcs: [
    { name: 'Goblin', count: 3, sheet: { hpMax: 7, hp: 7, tempHp: 0, ac: 15, initiativeModifier: 2, notes: 'Scimitar +4, 1d6 + 2; Nimble Escape.' } },
    { name: 'Goblin Boss', count: 1, sheet: { hpMax: 21, hp: 21, tempHp: 0, ac: 17, initiativeModifier: 2, notes: 'Multiattack: two scimitar attacks; Redirect Attack.' } },
  ],
  session: {
    title: 'Ambush in the Old Mine',
    recap: 'Goblins waited in the old mine with a rockfall rigged over the tunnel. Mirela went down under the boss\'s scimitar and Ilsa\'s Healing Word brought her back; the boss fell to Brannoc.',
  },
  encounter: 'The old mine',
  fight(f) {
    f.act({ type: 'ADD_FIXED', name: 'Rockfall', initiative: 20 });
    f.act({ type: 'START' });
    f.act({ type: 'ROLL_INITIATIVE', combatantId: f.id('Pip'), roll: typed(17) });
    f.act({ type: 'ROLL_INITIATIVE', combatantId: f.id('Mirela'), roll: typed(14) });
    f.act({ type: 'ROLL_INITIATIVE', combatantId: f.id('Brannoc'), roll: typed(12) });
    f.act({ type: 'ROLL_INITIATIVE', combatantId: f.id('Ilsa'), roll: typed(9) });
    f.act({
      type: 'ROLL_ALL_INITIATIVE',
      rolls: { [f.id('Goblin 1')]: typed(11), [f.id('Goblin 2')]: typed(5), [f.id('Goblin 3')]: typed(16), [f.id('Goblin Boss')]: typed(10) },
    });
    // Goblin 1 and Brannoc both have 13: the higher modifier goes first (R-A3).
    f.act({ type: 'START_COMBAT' });
    // Round 1: Pip, Rockfall, Goblin 3, Mirela, Goblin 1, Brannoc, Goblin Boss, Ilsa, Goblin 2.
    f.act(damage(f, 'Goblin 3', 11, 'a sneak attack'));
    f.act({ type: 'END_TURN' });
    f.act({ type: 'BATCH', events: [damage(f, 'Brannoc', 4, 'the rockfall'), damage(f, 'Goblin 1', 4, 'the rockfall')] });
    f.act({ type: 'END_TURN' });
    f.act({ type: 'BATCH', events: ['Goblin 1', 'Goblin 2', 'Goblin Boss'].map((name) => damage(f, name, 8, 'Burning Hands')) });
    f.act({ type: 'END_TURN' });
    f.act(damage(f, 'Goblin Boss', 10, 'a longsword'));
    f.act({ type: 'END_TURN' });
    f.act(damage(f, 'Mirela', 9, 'a scimitar'));
    f.act(damage(f, 'Mirela', 13, 'a scimitar'));
    f.act({ type: 'USE_REACTION', combatantId: f.id('Brannoc'), what: 'Protection, too late' });
    f.act({ type: 'END_TURN' });
    f.act({ type: 'CONCENTRATE', combatantId: f.id('Ilsa'), on: true, spell: 'Bless' });
    f.act({ type: 'END_TURN' });
    // Round 2.
    f.act(damage(f, 'Goblin Boss', 2, 'a thrown dagger'));
    f.act({ type: 'END_TURN' });
    f.act(damage(f, 'Ilsa', 5, 'the rockfall'));
    f.act({ type: 'CONCENTRATION_CHECK', combatantId: f.id('Ilsa'), passed: true });
    f.act({ type: 'END_TURN' });
    f.act({ type: 'DEATH_SAVE', combatantId: f.id('Mirela'), roll: typed(13) });
    f.act({ type: 'END_TURN' });
    f.act(damage(f, 'Goblin Boss', 6, 'a longsword'));
    f.act({ type: 'END_TURN' });
    f.act({ type: 'HEAL', targetId: f.id('Mirela'), amount: 7, source: 'Healing Word' });
    f.act({ type: 'INJURY', targetId: f.id('Mirela'), name: 'Scimitar gash', untilLongRest: true });
    f.act({ type: 'END_COMBAT', outcome: 'The goblins of the old mine are beaten' });
  },
  // One entry: the whole party's long rest (HP back to the maximum, Mirela's gash ends with it).
  recovery: (party) => [{ type: 'PARTY', action: { type: 'LONG_REST' }, characterIds: Object.values(party) }],
};
