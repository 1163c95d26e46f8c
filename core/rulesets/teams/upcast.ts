// Events stored before rules version 2 (a GM's database, an exported file) in today's shape. Version 1 packed a
// defence into one string (`DEFEND {id: 'parry:weapon'}`), named decisions `id` (CONSCIOUSNESS, EXTENDED,
// OPENING_ATTACK, LUCK_TEST) and the combatant an event is about `id` (SET_TEAM, SET_UNSURPRISABLE, SELECT_MEMBER,
// FIRE_READIED). Anything else comes back as it was; the schema still checks what this returns.
import { renameFields, type FieldRenames } from '../../encounter/upcast.ts';

/** Today's rules version of Teams' events (EncounterRules.rulesVersion). */
export const TEAMS_RULES_VERSION = 2;

/** Version 1's fields under today's names (the packed DEFEND id is unpacked below). */
const RENAMES: FieldRenames = {
  SET_TEAM: { id: 'combatantId' },
  SET_UNSURPRISABLE: { id: 'combatantId' },
  SELECT_MEMBER: { id: 'combatantId' },
  FIRE_READIED: { id: 'combatantId' },
  CONSCIOUSNESS: { id: 'decision' },
  EXTENDED: { id: 'decision' },
  OPENING_ATTACK: { id: 'decision' },
};

/** A version 1 DEFEND id as today's fields: `parry:weapon` → {defence: 'parry', slot: 'weapon'}. */
function defenceFields(id: string): Record<string, string> {
  if (id.startsWith('parry:')) return { defence: 'parry', slot: id.slice('parry:'.length) };
  if (id.startsWith('intercept:')) return { defence: 'intercept', interceptorId: id.slice('intercept:'.length) };
  return { defence: id };
}

export function upcastTeams(stored: unknown): unknown {
  const renamed = renameFields(stored, RENAMES);
  if (renamed !== stored || stored === null || typeof stored !== 'object' || Array.isArray(stored) || !('id' in stored)) return renamed;
  const { id, ...rest } = stored as Record<string, unknown>;
  if (rest['type'] === 'LUCK_TEST' && id === 'roll') return rest;
  if (rest['type'] === 'DEFEND' && typeof id === 'string' && !('defence' in rest)) return { ...rest, ...defenceFields(id) };
  return stored;
}
