// Factions' events as stored before rules version 2 (EncounterRules.upcast): a bare `id` held a combatant, a faction
// or a decision, a reaction was packed in a string (`'hideBehind:b'`, `'counter:unarmed'`), the prompts' roll buttons
// sent `id: 'roll'`, and the rolls were named two ways (`witRoll`, `counterRoll`). Each old shape is read as today's;
// anything else is returned as it is, for the schema to judge.

type Fields = Record<string, unknown>;

/** `from` renamed `to` (when the event has the old name and not the new one). */
function renamed(event: Fields, from: string, to: string): Fields {
  if (!(from in event) || to in event) return event;
  const { [from]: value, ...rest } = event;
  return { ...rest, [to]: value };
}

/** The prompts' roll buttons sent `id: 'roll'`: today the button sends nothing but the roll. */
function withoutRollId(event: Fields): Fields {
  if (event['id'] !== 'roll') return event;
  const { id: _id, ...rest } = event;
  return rest;
}

/** `'none'`, `'dodge'`, `'counter'`, `'counter:unarmed'`, `'hideBehind:b'`, `'guard:c'` as separate fields. */
function unpackedReaction(event: Fields): Fields {
  if (typeof event['id'] !== 'string' || 'reaction' in event) return event;
  const { id, ...rest } = event;
  const [kind, other] = id.split(':') as [string, string | undefined];
  const counter = rest['counter'] && typeof rest['counter'] === 'object' ? { counter: renamed(rest['counter'] as Fields, 'witRoll', 'attackRoll') } : {};
  if (kind === 'counter') return { ...rest, ...counter, reaction: 'counter', ...(other ? { counterPreset: other } : {}) };
  if (kind === 'hideBehind' && other) return { ...rest, reaction: 'hideBehind', behindId: other };
  if (kind === 'guard' && other) return { ...rest, reaction: 'guard', guardId: other };
  return { ...rest, reaction: kind };
}

function selection(event: Fields): Fields {
  if (event['id'] === 'pass' && !('pass' in event)) {
    const { id: _id, ...rest } = event;
    return { ...rest, pass: true };
  }
  return renamed(event, 'id', 'combatantId');
}

const UPCASTS: Record<string, (event: Fields) => Fields> = {
  SET_FACTION: (e) => renamed(e, 'id', 'combatantId'),
  SET_CONCEALED: (e) => renamed(e, 'id', 'combatantId'),
  SET_ZONE: (e) => renamed(e, 'id', 'combatantId'),
  SET_STATUS: (e) => renamed(e, 'id', 'combatantId'),
  SET_GROUP: (e) => renamed(e, 'ids', 'memberIds'),
  SET_INITIATIVE: (e) => renamed(e, 'id', 'faction'),
  CHOOSE_FIRST_FACTION: (e) => renamed(e, 'id', 'faction'),
  SELECT_CHARACTER: selection,
  ROLL_FAT: withoutRollId,
  MORALE_ROLL: withoutRollId,
  RESOLVE_ATTACK: (e) => renamed(withoutRollId(e), 'counterRoll', 'counterDamageRoll'),
  ATTACK: (e) => renamed(e, 'witRoll', 'attackRoll'),
  STUNT_ANSWER: (e) => renamed(e, 'id', 'decision'),
  MORALE_OUTCOME: (e) => renamed(e, 'id', 'outcome'),
  DURABILITY_RESULT: (e) => renamed(e, 'id', 'result'),
  REACT: unpackedReaction,
};

/** A stored or imported Factions event in today's shape (rules version 2). */
export function upcastFactionsEvent(stored: unknown): unknown {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return stored;
  const event = stored as Fields;
  const upcast = typeof event['type'] === 'string' ? UPCASTS[event['type']] : undefined;
  return upcast ? upcast(event) : stored;
}
