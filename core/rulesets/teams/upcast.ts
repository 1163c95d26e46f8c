// Events stored before rules version 2 (a GM's database, an exported file) in today's shape. Version 1 packed a
// defence into one string (`DEFEND {id: 'parry:weapon'}`), named decisions `id` (CONSCIOUSNESS, EXTENDED,
// OPENING_ATTACK, LUCK_TEST) and the combatant an event is about `id` (SET_TEAM, SET_UNSURPRISABLE, SELECT_MEMBER,
// FIRE_READIED). Anything else comes back as it was; the schema still checks what this returns.

/** Today's rules version of Teams' events (EncounterRules.rulesVersion). */
export const TEAMS_RULES_VERSION = 2;

const ABOUT_A_COMBATANT = new Set(['SET_TEAM', 'SET_UNSURPRISABLE', 'SELECT_MEMBER', 'FIRE_READIED']);
const DECISIONS = new Set(['CONSCIOUSNESS', 'EXTENDED', 'OPENING_ATTACK']);

/** A version 1 DEFEND id as today's fields: `parry:weapon` → {defence: 'parry', slot: 'weapon'}. */
function defenceFields(id: string): Record<string, string> {
  if (id.startsWith('parry:')) return { defence: 'parry', slot: id.slice('parry:'.length) };
  if (id.startsWith('intercept:')) return { defence: 'intercept', interceptorId: id.slice('intercept:'.length) };
  return { defence: id };
}

export function upcastTeams(stored: unknown): unknown {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored) || !('id' in stored)) return stored;
  const { id, ...rest } = stored as Record<string, unknown>;
  const type = rest['type'];
  if (typeof type !== 'string') return stored;
  if (ABOUT_A_COMBATANT.has(type) && !('combatantId' in rest)) return { ...rest, combatantId: id };
  if (DECISIONS.has(type) && !('decision' in rest)) return { ...rest, decision: id };
  if (type === 'LUCK_TEST' && id === 'roll') return rest;
  if (type === 'DEFEND' && typeof id === 'string' && !('defence' in rest)) return { ...rest, ...defenceFields(id) };
  return stored;
}
