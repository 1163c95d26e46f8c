// The Cairn-Errant demo: two errants against a ghoul in a barrow. Shows a range band, a wound from a trap, intents
// declared and locked, DEX saves ordering the round, a Block, the Critical Damage save, and a night's rest.
import { typed, type RulesetDemo } from '../demo.ts';

export const cairnErrantDemo: RulesetDemo = {
  name: 'Demo — Cairn-Errant: The Blackwood Barrow',
  party: [
    {
      name: 'Wren',
      sheet: { hpMax: 5, hp: 5, strMax: 12, str: 12, dexMax: 14, dex: 14, wilMax: 9, wil: 9, weaponDie: 8, armor: 1, gearSlots: 4, notes: 'Warden of the Blackwood; a longsword and a lantern.' },
    },
    {
      name: 'Hollis',
      sheet: { hpMax: 4, hp: 4, strMax: 10, str: 10, dexMax: 11, dex: 11, wilMax: 13, wil: 13, weaponDie: 6, shield: true, armor: 1, gearSlots: 5, notes: 'Grave-tender with a hand axe and a round shield.' },
    },
  ],
  npcs: [{ name: 'Ghoul', count: 1, sheet: { hpMax: 4, hp: 4, strMax: 11, str: 11, dexMax: 10, dex: 10, wilMax: 8, wil: 8, weaponDie: 6, notes: 'Barrow-dweller; claws like a d6 blade.' } }],
  session: { title: 'Into the Barrow', recap: 'A brazier trap burned Hollis at the barrow door. The ghoul inside clawed him down to 1 HP before his axe finished it.' },
  encounter: 'The barrow',
  fight(f) {
    f.act({ type: 'START' });
    f.act({ type: 'SET_BAND', combatantId: f.id('Ghoul'), band: 'close' });
    f.act({ type: 'GAIN_WOUND', combatantId: f.id('Hollis'), woundType: 'burns', severity: 'light', source: 'a brazier trap at the barrow door' });
    f.act({ type: 'DECLARE_INTENT', combatantId: f.id('Wren'), action: 'melee', targetId: f.id('Ghoul') });
    f.act({ type: 'DECLARE_INTENT', combatantId: f.id('Hollis'), action: 'melee', targetId: f.id('Ghoul') });
    f.act({ type: 'SET_NPC_INTENT', combatantId: f.id('Ghoul'), action: 'melee', targetId: f.id('Hollis') });
    f.act({ type: 'LOCK_INTENTS' });
    f.act({ type: 'DEX_SAVE', combatantId: f.id('Wren'), roll: typed(6) });
    f.act({ type: 'DEX_SAVE', combatantId: f.id('Hollis'), roll: typed(15) });
    f.act({ type: 'STRIKE', targetId: f.id('Ghoul'), roll: typed(3) });
    f.act({ type: 'DEFENSE', defence: 'block' });
    f.act({ type: 'STRIKE', targetId: f.id('Hollis'), roll: typed(4) });
    f.act({ type: 'STRIKE', targetId: f.id('Ghoul'), roll: typed(5) });
    f.act({ type: 'STR_SAVE', combatantId: f.id('Ghoul'), roll: typed(15) });
    // The last enemy dies: the fight ends itself and carries HP, Fatigue and the burns onto the campaign.
    f.act({ type: 'NPC_CRITICAL', result: 'dead' });
  },
  recovery: (party) => [{ type: 'NIGHT_REST', characterId: party['Hollis']!, safe: true }],
};
