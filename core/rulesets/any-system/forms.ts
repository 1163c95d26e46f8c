// "Any system"'s action forms for the runner (and the prepare screen's fixed entries): what a person enters by hand.
// Damage and healing name one target each, so the selection bar sends them to several targets at once as one batch
// (SeveralTargets). Rolls are not fields: the app rolls them, or the GM types the faces of a physical die.
import type { ActionForm } from '../../encounter/types.ts';

const who = (label = 'Who', extra: object = {}) => ({ key: 'combatantId', label, kind: 'combatant', who: 'any', ...extra }) as const;
const target = { key: 'targetId', label: 'Target', kind: 'combatant', who: 'any' } as const;

export const anySystemActionForms: readonly ActionForm[] = [
  // ---- setup and initiative ----
  { type: 'ADD_FIXED', phase: 'setup', label: 'Fixed entry', help: 'A lair action, an environment effect: a name at a fixed initiative that only takes turns (no HP) and loses ties.',
    fields: [
      { key: 'name', label: 'Name', kind: 'text', default: 'Lair action' },
      { key: 'initiative', label: 'Initiative', kind: 'integer', min: -50, max: 99, default: 20 },
    ] },
  { type: 'ROLL_INITIATIVE', onlyWhenAllowed: true, label: 'Roll initiative', shortcut: 'i', help: 'The initiative die + the modifier, one combatant at a time. Roll for me, or type the face of a physical die.',
    fields: [who('Who', { who: 'unplaced' })] },
  { type: 'ROLL_ALL_INITIATIVE', onlyWhenAllowed: true, label: 'Roll for everyone outside the party', help: 'One roll each for every enemy and NPC still without initiative.', fields: [] },
  { type: 'SET_INITIATIVE', onlyWhenAllowed: true, label: 'Type initiative', shortcut: 't', help: 'The total as the table called it (a player\'s own roll, a typed-in campaign).',
    fields: [who('Who', { preferUnplaced: true }), { key: 'total', label: 'Initiative', kind: 'integer', min: -50, max: 99, default: 10 }] },
  { type: 'REORDER', onlyWhenAllowed: true, label: 'Order a tie', help: 'Two combatants the tie-break leaves tied: the first goes before the second (a roll-off at the table, or the GM\'s choice).',
    fields: [who('Goes first'), { key: 'beforeId', label: 'Before', kind: 'combatant', who: 'any' }] },
  { type: 'START_COMBAT', onlyWhenAllowed: true, label: 'Begin round 1', shortcut: 'b',
    fields: [{ key: 'missingLast', label: 'Those without initiative go last', kind: 'flag', optional: true }] },
  // ---- turns ----
  { type: 'DELAY', label: 'Delay', shortcut: 'y', help: 'The active combatant steps out of the order; Resume brings it back right after the current turn.',
    fields: [who('Who delays', { who: 'active', defaultActive: true })] },
  { type: 'RESUME', onlyWhenAllowed: true, label: 'Resume', help: 'A delaying combatant acts right after the current turn and takes its initiative.',
    fields: [who('Who resumes')] },
  { type: 'READY', label: 'Ready', shortcut: 'r', help: 'The active combatant readies an action; it lapses at the start of its next turn.',
    fields: [who('Who', { who: 'active', defaultActive: true }), { key: 'trigger', label: 'Trigger', kind: 'text', default: '' }] },
  { type: 'USE_READY', onlyWhenAllowed: true, label: 'Readied action', help: 'The trigger happened: the readied action is taken (as a reaction, when reactions are counted).', fields: [who()] },
  { type: 'USE_REACTION', label: 'Reaction', shortcut: 'e', help: 'Refreshed at the start of the combatant\'s own turn (R-A8).',
    fields: [who(), { key: 'what', label: 'What', kind: 'text', optional: true, emptyAs: 'omit' }] },
  // ---- damage and health ----
  { type: 'APPLY_DAMAGE', label: 'Damage', shortcut: 'd', help: 'Temporary HP first, then HP. At 0 HP while dying: a failed death save (two on a critical hit).',
    fields: [
      target,
      { key: 'amount', label: 'Damage', kind: 'integer', min: 1, max: 9999, default: 1 },
      { key: 'critical', label: 'Critical hit', kind: 'flag', optional: true },
      { key: 'source', label: 'Source', kind: 'text', optional: true, emptyAs: 'omit' },
    ] },
  { type: 'HEAL', label: 'Heal', shortcut: 'h', help: 'Up to the maximum; any healing wakes a combatant at 0 HP.',
    fields: [target, { key: 'amount', label: 'HP healed', kind: 'integer', min: 1, max: 9999, default: 1 }, { key: 'source', label: 'Source', kind: 'text', optional: true, emptyAs: 'omit' }] },
  { type: 'SET_TEMP_HP', label: 'Temporary HP', help: 'They do not add up: the higher of the old and the new stays.',
    fields: [target, { key: 'amount', label: 'Temporary HP', kind: 'integer', min: 1, max: 999, default: 5 }] },
  { type: 'SET_HP', label: 'Set HP', help: 'The GM sets HP outright (a correction, a revival); the log says so.',
    fields: [target, { key: 'hp', label: 'HP', kind: 'integer', min: 0, max: 9999, default: 1 }, { key: 'note', label: 'Why', kind: 'text', optional: true, emptyAs: 'omit' }] },
  { type: 'DEATH_SAVE', onlyWhenAllowed: true, label: 'Death save', help: 'd20 at the start of a dying combatant\'s turn: roll for me, or type the face.',
    fields: [who('Who', { defaultActive: true })] },
  { type: 'CONCENTRATE', label: 'Concentration', shortcut: 'c', help: 'Marks a combatant concentrating on a spell (or ends it).',
    fields: [
      who(),
      { key: 'on', label: 'Concentrating', kind: 'flag', default: true },
      { key: 'spell', label: 'Spell', kind: 'text', optional: true, emptyAs: 'omit' },
    ] },
  { type: 'CONCENTRATION_CHECK', onlyWhenAllowed: true, label: 'Concentration check', help: 'The GM records the save the damage called for: a failure ends concentration.',
    fields: [who(), { key: 'passed', label: 'Passed', kind: 'flag', default: true }] },
  { type: 'INJURY', label: 'Injury', help: 'A lasting injury kept on the character after the fight; "until a long rest" ends with the next long rest.',
    fields: [target, { key: 'name', label: 'Injury', kind: 'text', default: '' }, { key: 'untilLongRest', label: 'Until a long rest', kind: 'flag', optional: true }] },
];
