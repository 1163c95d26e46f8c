// Thrum's events as stored before rules version 2, read in today's shape (EncounterRules.upcast). Version 1 named
// every field `id`: the combatant an event is about, a defence, an outcome, a buff decision or a trigger's owner.
// Since version 2 each field is named for what it holds (docs/rulesets/thrum.md, the event table).

/** Events whose `id` was the combatant the event is about: `combatantId` since version 2. */
const ABOUT_A_COMBATANT = new Set(['SET_SIDE', 'PLACE_NPC', 'ROLL_INITIATIVE', 'BREAK_TIE', 'DELAY', 'PANIC_ROLL', 'INCAPACITY_ROLL', 'FORCED_MOVE', 'SET_POSITION']);

/** Events whose `id` held a decision or a role: the field's name since version 2. */
const DECISIONS: Record<string, string> = { DEFENSE_CHOICE: 'defence', DEFENSE_RESULT: 'outcome', BUFF_CHOICE: 'decision', RESOLVE_TRIGGER: 'ownerId' };

/** The stored event with its version 1 `id` renamed; anything else unchanged. */
export function upcastThrum(stored: unknown): unknown {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return stored;
  const event = stored as Record<string, unknown>;
  const type = event['type'];
  if (typeof type !== 'string' || !('id' in event)) return stored;
  const field = ABOUT_A_COMBATANT.has(type) ? 'combatantId' : DECISIONS[type];
  if (field === undefined || field in event) return stored;
  const { id, ...rest } = event;
  return { ...rest, [field]: id };
}
