// Cairn-Errant's events stored before they named their fields still replay: every old shape reads as today's, and a
// fight stored in the old shapes replays to the same view as the same fight sent today.
import { describe, expect, it } from 'vitest';
import { EncounterEngine, parseEvent } from '../../encounter/kernel.ts';
import { defaultOptions } from '../options.ts';
import { cairnErrantEncounter } from './encounter.ts';
import { cairnErrantOptions } from './options.ts';
import { app, seed, who } from './testing.ts';
import { upcastCairnEvent } from './upcast.ts';

const roll = app(3);
const OLD_TO_NEW: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['a player declares', { type: 'DECLARE_INTENT', id: 'bram', action: 'melee', targetId: 'orc' }, { type: 'DECLARE_INTENT', combatantId: 'bram', action: 'melee', targetId: 'orc' }],
  ['the Warden sets an intent', { type: 'SET_NPC_INTENT', id: 'orc', action: 'gambit', targetId: 'bram' }, { type: 'SET_NPC_INTENT', combatantId: 'orc', action: 'gambit', targetId: 'bram' }],
  ['a telegraph', { type: 'TELEGRAPH', id: 'orc', text: 'eyes on Bram' }, { type: 'TELEGRAPH', combatantId: 'orc', text: 'eyes on Bram' }],
  ['a quick or full turn', { type: 'CONFIRM_TIER', id: 'bram', tier: 'full' }, { type: 'CONFIRM_TIER', combatantId: 'bram', tier: 'full' }],
  ['an initiative DEX save', { type: 'DEX_SAVE', id: 'bram', roll }, { type: 'DEX_SAVE', combatantId: 'bram', roll }],
  ['a redirect names the new target', { type: 'REDIRECT', id: 'mirah' }, { type: 'REDIRECT', targetId: 'mirah' }],
  ['an action lost', { type: 'REDIRECT', id: 'lost' }, { type: 'REDIRECT', targetId: null }],
  ['a gambit names its save', { type: 'GAMBIT', id: 'dex', roll, saveRoll: roll }, { type: 'GAMBIT', save: 'dex', roll, saveRoll: roll }],
  ['attacking back', { type: 'ATTACK_BACK', id: 'strike', roll }, { type: 'ATTACK_BACK', decision: 'strike', roll }],
  ['declining it', { type: 'ATTACK_BACK', id: 'decline' }, { type: 'ATTACK_BACK', decision: 'decline' }],
  ['taking the attack', { type: 'DEFENSE', id: 'none' }, { type: 'DEFENSE', defence: 'none' }],
  ['a block', { type: 'DEFENSE', id: 'block' }, { type: 'DEFENSE', defence: 'block' }],
  ['a dodge asked by its defender', { type: 'DEFENSE', id: 'dodge', defenderId: 'bram' }, { type: 'DEFENSE', defence: 'dodge', defenderId: 'bram' }],
  ['a fight-back names its attacker', { type: 'DEFENSE', id: 'fightBack:orc' }, { type: 'DEFENSE', defence: 'fightBack', attackerId: 'orc' }],
  ['a parry names its attacker', { type: 'DEFENSE', id: 'parry:orc' }, { type: 'DEFENSE', defence: 'parry', attackerId: 'orc' }],
  ['the damage roll names its target', { type: 'STRIKE', id: 'bram', roll }, { type: 'STRIKE', targetId: 'bram', roll }],
  ['a tie names the attacker whose weapon lands', { type: 'TIE_BREAK', id: 'orc' }, { type: 'TIE_BREAK', attackerId: 'orc' }],
  ['the STR save', { type: 'STR_SAVE', id: 'bram', roll }, { type: 'STR_SAVE', combatantId: 'bram', roll }],
  ['the critical d6', { type: 'CRIT_D6', id: 'bram', roll, hpRoll: roll }, { type: 'CRIT_D6', combatantId: 'bram', roll, hpRoll: roll }],
  ['the hit location', { type: 'HIT_LOCATION', id: 'bram', roll, strRoll: roll }, { type: 'HIT_LOCATION', combatantId: 'bram', roll, strRoll: roll }],
  ['an enemy\'s critical damage', { type: 'NPC_CRITICAL', id: 'fightsOn' }, { type: 'NPC_CRITICAL', result: 'fightsOn' }],
  ['a head hit', { type: 'HEAD_RESULT', id: 'survives' }, { type: 'HEAD_RESULT', result: 'survives' }],
  ['the fight-back roll names its defender', { type: 'FIGHT_BACK', id: 'bram', roll }, { type: 'FIGHT_BACK', defenderId: 'bram', roll }],
  ['a retreat', { type: 'RETREAT', id: 'bram', safePlace: true, roll }, { type: 'RETREAT', combatantId: 'bram', safePlace: true, roll }],
  ['awareness', { type: 'SET_AWARE', id: 'orc', aware: false }, { type: 'SET_AWARE', combatantId: 'orc', aware: false }],
  ['a range band', { type: 'SET_BAND', id: 'orc', band: 'near' }, { type: 'SET_BAND', combatantId: 'orc', band: 'near' }],
  ['treatment', { type: 'TREAT', id: 'bram', note: 'bandages' }, { type: 'TREAT', combatantId: 'bram', note: 'bandages' }],
  ['a wound', { type: 'GAIN_WOUND', id: 'bram', woundType: 'burns', source: 'a brazier' }, { type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'burns', source: 'a brazier' }],
  ['a removal (the shared rename)', { type: 'REMOVE_COMBATANT', id: 'orc', reason: 'fled' }, { type: 'REMOVE_COMBATANT', combatantId: 'orc', reason: 'fled' }],
];

describe('Cairn-Errant events stored with a bare id read in today\'s shape', () => {
  it.each(OLD_TO_NEW)('%s', (_what, old, today) => {
    expect(parseEvent(cairnErrantEncounter, old)).toEqual(today);
  });

  it('leaves today\'s shapes and other events as they are', () => {
    for (const [, , today] of OLD_TO_NEW) expect(upcastCairnEvent(today)).toBe(today);
    const damage = { type: 'APPLY_DAMAGE', targetId: 'bram', amount: 2, source: 'a trap' };
    expect(upcastCairnEvent(damage)).toBe(damage);
    expect(upcastCairnEvent(null)).toBeNull();
    // The machine's context kept its shape: the stored snapshots stay valid (rules version 1).
    expect(cairnErrantEncounter.rulesVersion).toBeUndefined();
  });

  it('refuses a fight-back or a Parry that names no attacker, with a sentence', () => {
    const e = EncounterEngine.create(cairnErrantEncounter, input());
    for (const event of FIGHT.slice(0, 7)) e.apply(event);
    expect(e.view().prompt).toMatchObject({ kind: 'defence', subjectId: 'bram' });
    expect(() => e.apply({ type: 'DEFENSE', defence: 'fightBack' })).toThrow('Say whom Bram fights back against.');
    expect(() => e.apply({ type: 'DEFENSE', defence: 'parry' })).toThrow('Say whom Bram parries.');
  });

  it('a fight stored in the old shapes replays to the view the same fight gives today', () => {
    const today = EncounterEngine.create(cairnErrantEncounter, input());
    for (const event of FIGHT) today.apply(event);
    const old = EncounterEngine.resume(cairnErrantEncounter, input(), null, FIGHT.map(oldShape));
    expect(FIGHT.map(oldShape).filter((event) => 'id' in event)).toHaveLength(FIGHT.length - 3);
    expect(old.view()).toEqual(today.view());
    expect(who(old, 'orc')).toMatchObject({ hp: 2, aware: false });
    expect(who(old, 'bram').wounds).toHaveLength(1);
  });
});

const input = () => ({ options: defaultOptions(cairnErrantOptions), carried: {} });

/** Bram fights back against the orc's blow, is wounded and treated; the orc is hit back and made unaware. */
const FIGHT: Record<string, unknown>[] = [
  { type: 'ADD_COMBATANTS', combatants: [seed('bram', 'party', { weaponDie: 8, hpMax: 6, hp: 6 }), seed('orc', 'enemies', { weaponDie: 8, armor: 1, hpMax: 8, hp: 8, canDefend: true })] },
  { type: 'START' },
  { type: 'SET_BAND', combatantId: 'orc', band: 'close' },
  { type: 'DECLARE_INTENT', combatantId: 'bram', action: 'spell' },
  { type: 'SET_NPC_INTENT', combatantId: 'orc', action: 'melee', targetId: 'bram' },
  { type: 'TELEGRAPH', combatantId: 'orc', text: 'the orc has its eyes on Bram' },
  { type: 'LOCK_INTENTS' },
  { type: 'DEFENSE', defence: 'fightBack', attackerId: 'orc' },
  { type: 'STRIKE', targetId: 'bram', roll: app(5) },
  { type: 'FIGHT_BACK', defenderId: 'bram', roll: app(7) },
  { type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'burns', severity: 'light', source: 'a brazier' },
  { type: 'SET_AWARE', combatantId: 'orc', aware: false },
];

/** Today's event as it was stored with a bare id. */
function oldShape(event: Record<string, unknown>): Record<string, unknown> {
  const { combatantId, targetId, defenderId, defence, attackerId, ...rest } = event;
  switch (event['type']) {
    case 'DEFENSE': return { ...rest, id: attackerId ? `${String(defence)}:${String(attackerId)}` : defence };
    case 'STRIKE': return { ...rest, id: targetId };
    case 'FIGHT_BACK': return { ...rest, id: defenderId };
    case 'SET_NPC_INTENT': return { ...rest, id: combatantId, targetId };
    default: return combatantId === undefined ? event : { ...rest, id: combatantId, ...(targetId === undefined ? {} : { targetId }) };
  }
}
