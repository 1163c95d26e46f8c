// Cairn-Errant's events as stored before they named their fields (a GM's database, an exported file): a bare `id` held
// the combatant an event is about, the one it is aimed at, or the decision taken, and DEFENSE packed the attacker a
// fight-back or a Parry answers into one string (`'parry:orc'`). Each old shape is read as today's; anything else
// comes back as it was, for the schema to judge. The machine's context kept its shape, so the rules version stays 1.
import { renameFields, type FieldRenames } from '../../encounter/upcast.ts';

/** The old `id` under today's name, event by event. */
const RENAMES: FieldRenames = {
  DECLARE_INTENT: { id: 'combatantId' },
  SET_NPC_INTENT: { id: 'combatantId' },
  TELEGRAPH: { id: 'combatantId' },
  CONFIRM_TIER: { id: 'combatantId' },
  DEX_SAVE: { id: 'combatantId' },
  STR_SAVE: { id: 'combatantId' },
  CRIT_D6: { id: 'combatantId' },
  HIT_LOCATION: { id: 'combatantId' },
  RETREAT: { id: 'combatantId' },
  SET_AWARE: { id: 'combatantId' },
  SET_BAND: { id: 'combatantId' },
  TREAT: { id: 'combatantId' },
  GAIN_WOUND: { id: 'combatantId' },
  STRIKE: { id: 'targetId' },
  TIE_BREAK: { id: 'attackerId' },
  FIGHT_BACK: { id: 'defenderId' },
  GAMBIT: { id: 'save' },
  ATTACK_BACK: { id: 'decision' },
  NPC_CRITICAL: { id: 'result' },
  HEAD_RESULT: { id: 'result' },
};

type Fields = Record<string, unknown>;

/** `'none'`, `'block'`, `'dodge'`, `'fightBack:<attacker>'`, `'parry:<attacker>'` as `{defence, attackerId}`. */
function unpackedDefence(event: Fields): Fields {
  const { id, ...rest } = event;
  if (typeof id !== 'string' || 'defence' in rest) return event;
  const colon = id.indexOf(':');
  return colon < 0 ? { ...rest, defence: id } : { ...rest, defence: id.slice(0, colon), attackerId: id.slice(colon + 1) };
}

/** REDIRECT's old `id` was the new target, or `'lost'` for an action given up: today `targetId`, null when lost. */
function redirect(event: Fields): Fields {
  const { id, ...rest } = event;
  if (typeof id !== 'string' || 'targetId' in rest) return event;
  return { ...rest, targetId: id === 'lost' ? null : id };
}

/** A stored or imported Cairn-Errant event in today's shape. */
export function upcastCairnEvent(stored: unknown): unknown {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return stored;
  const event = stored as Fields;
  if (event['type'] === 'DEFENSE') return unpackedDefence(event);
  if (event['type'] === 'REDIRECT') return redirect(event);
  return renameFields(stored, RENAMES);
}
