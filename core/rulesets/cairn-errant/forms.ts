// Cairn-Errant's action forms for the runner (RULES.md §4.2–§4.6): declarations, retreat, range bands, awareness,
// damage, wounds, treatment and overrides. Everything the round asks of a person one at a time (DEX saves, defences, saves, critical tables)
// comes as prompt buttons.
import type { ActionField, ActionForm } from '../../encounter/types.ts';

/**
 * The declaration's fields; "Who" is the one declaring (source: "each PC declares their intentions that round. The
 * Warden decides what the enemies will do"): the party for a player's intent, the enemies for the Warden's.
 */
const intentFields = (side: 'party' | 'enemies'): readonly ActionField[] => [
  { key: 'combatantId', label: 'Who', kind: 'combatant', side },
  { key: 'action', label: 'Intent', kind: 'choice', choices: [
    { value: 'melee', label: 'Melee attack' }, { value: 'gambit', label: 'Gambit' }, { value: 'ranged', label: 'Ranged attack' },
    { value: 'retreat', label: 'Retreat' }, { value: 'move', label: 'Move' }, { value: 'spell', label: 'Spell' }, { value: 'other', label: 'Something else' },
  ] },
  { key: 'targetId', label: 'Target', kind: 'combatant', optional: true, emptyAs: 'null' },
  { key: 'move', label: 'Movement', kind: 'choice', optional: true, choices: [{ value: 'none', label: 'None' }, { value: 'before', label: 'Before the action' }, { value: 'after', label: 'After the action' }],
    help: 'Left empty, the range bands decide: a melee strike at someone not Close closes in first (a full turn).' },
  { key: 'bands', label: 'Bands moved', kind: 'choice', optional: true, choices: [{ value: '1', label: 'One band' }, { value: '2', label: 'Two bands (a full turn)' }] },
  { key: 'fast', label: 'Fast spell or trick', kind: 'flag', optional: true },
  { key: 'weapon', label: 'Weapon', kind: 'choice', optional: true, choices: [
    { value: 'main', label: 'Main hand' }, { value: 'offhand', label: 'Off hand' }, { value: 'dual', label: 'Both (keep the higher die)' },
    { value: 'unarmed', label: 'Unarmed (d4)' }, { value: 'improvised', label: 'Improvised' },
  ] },
  { key: 'improvisedSize', label: 'Improvised weapon', kind: 'choice', optional: true, choices: [{ value: '6', label: 'Bottle-sized (d6)' }, { value: '8', label: 'Chair-sized (d8)' }, { value: '10', label: 'Table-sized (d10)' }] },
  { key: 'die', label: 'Another weapon (a bow...)', kind: 'choice', optional: true, choices: ['4', '6', '8', '10', '12'].map((size) => ({ value: size, label: `d${size}` })) },
  { key: 'position', label: 'Position', kind: 'choice', optional: true, choices: [{ value: 'normal', label: 'Normal' }, { value: 'enhanced', label: 'Enhanced (+d12)' }, { value: 'impaired', label: 'Impaired (d4)' }] },
  { key: 'fromClose', label: 'Retreats from a Close foe', kind: 'flag', optional: true, help: 'Only when no range band is set; otherwise the bands decide.' },
  { key: 'nonLethal', label: 'Non-lethal', kind: 'flag', optional: true },
  { key: 'note', label: 'Note', kind: 'text', optional: true },
];

export const cairnErrantActionForms: readonly ActionForm[] = [
  { type: 'DECLARE_INTENT', label: 'Player intent', shortcut: 'i', help: 'Each player declares before the round is ordered; quick or full follows from the intent.', fields: intentFields('party') },
  { type: 'SET_NPC_INTENT', label: 'Enemy intent', shortcut: 'e', help: 'The Warden\'s intents (telegraph what the players should see).', fields: intentFields('enemies') },
  { type: 'TELEGRAPH', label: 'Telegraph', fields: [{ key: 'combatantId', label: 'Enemy', kind: 'combatant', side: 'enemies' }, { key: 'text', label: 'What the players see', kind: 'text', default: '' }] },
  { type: 'CONFIRM_TIER', label: 'Quick or full', fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant' }, { key: 'tier', label: 'Turn', kind: 'choice', choices: [{ value: 'quick', label: 'Quick' }, { value: 'full', label: 'Full' }] }] },
  { type: 'LOCK_INTENTS', label: 'Lock intents', shortcut: 'l', help: 'Declarations are fixed; the round is ordered: quick turns before full, DEX saves inside each tier.', fields: [] },
  { type: 'RETREAT', label: 'Retreat', shortcut: 'r', help: 'A DEX save, with somewhere safe to run to: one action from a foe Near or farther, a full turn from a Close one.', fields: [
    { key: 'combatantId', label: 'Who', kind: 'combatant', defaultActive: true },
    // Source "Retreat": "a successful DEX Save allows one to run away ... as long as there is a safe place to run to".
    { key: 'safePlace', label: 'There is a safe place to run to', kind: 'flag', default: true, help: 'Without one the retreat cannot succeed: no save is rolled and the action is lost.' },
  ] },
  { type: 'SET_BAND', label: 'Range band', shortcut: 'b', help: 'How far an enemy is from the party (or a PC away from the party from its nearest foe): Close, Near, Far or Distant.',
    fields: [
      { key: 'combatantId', label: 'Who', kind: 'combatant' },
      { key: 'band', label: 'Band', kind: 'choice', choices: [{ value: 'close', label: 'Close (within reach)' }, { value: 'near', label: 'Near (one move)' }, { value: 'far', label: 'Far (a few rooms)' }, { value: 'distant', label: 'Distant (out of range)' }] },
    ] },
  { type: 'APPLY_DAMAGE', label: 'Damage', shortcut: 'd', help: 'An amount after Armor; HP first, the rest to STR (or straight to an attribute).',
    fields: [
      { key: 'targetId', label: 'Who', kind: 'combatant' },
      { key: 'amount', label: 'Amount', kind: 'integer', min: 1, max: 99, default: 1 },
      { key: 'attribute', label: 'To', kind: 'choice', optional: true, choices: [{ value: 'hp', label: 'HP' }, { value: 'str', label: 'STR' }, { value: 'dex', label: 'DEX' }, { value: 'wil', label: 'WIL' }] },
      { key: 'nonLethal', label: 'Non-lethal', kind: 'flag', optional: true },
      { key: 'source', label: 'Source', kind: 'text', default: '' },
    ] },
  { type: 'SET_AWARE', label: 'Aware / unaware', help: 'Unaware targets take damage straight to STR.',
    fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant' }, { key: 'aware', label: 'Aware', kind: 'flag', default: true }] },
  { type: 'GAIN_WOUND', label: 'Wound', help: 'Burns, nerve damage, frostbite, poisoning: a wound takes a slot (§4.6).',
    fields: [
      { key: 'combatantId', label: 'Who', kind: 'combatant' },
      { key: 'woundType', label: 'Wound', kind: 'choice', choices: [{ value: 'burns', label: 'Burns' }, { value: 'nerveDamage', label: 'Nerve damage' }, { value: 'frostbite', label: 'Frostbite' }, { value: 'poisoning', label: 'Poisoning' }, { value: 'other', label: 'Other' }] },
      { key: 'severity', label: 'Severity', kind: 'choice', optional: true, choices: [{ value: 'light', label: 'Light' }, { value: 'severe', label: 'Severe' }, { value: 'permanent', label: 'Permanent' }] },
      { key: 'choice', label: 'On a wounded slot', kind: 'choice', optional: true, choices: [{ value: 'worsen', label: 'Worsen it' }, { value: 'newSlot', label: 'A new slot' }] },
      { key: 'attribute', label: 'A permanent wound lowers', kind: 'choice', optional: true, choices: [{ value: 'str', label: 'STR' }, { value: 'dex', label: 'DEX' }, { value: 'wil', label: 'WIL' }] },
      { key: 'dropItem', label: 'Drop an item to make room', kind: 'flag', optional: true },
      { key: 'source', label: 'Source', kind: 'text', default: '' },
    ] },
  { type: 'TREAT', label: 'Treat', fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant' }, { key: 'note', label: 'With what', kind: 'text', optional: true }] },
  { type: 'OVERRIDE', label: 'Override', help: 'A GM override changes one number outright; the log records it with your note.',
    fields: [
      { key: 'targetId', label: 'Who', kind: 'combatant' },
      { key: 'field', label: 'What', kind: 'choice', choices: [
        { value: 'hp', label: 'HP' }, { value: 'str', label: 'STR' }, { value: 'dex', label: 'DEX' }, { value: 'wil', label: 'WIL' },
        { value: 'fatigue', label: 'Fatigue' }, { value: 'gearSlots', label: 'Gear slots' }, { value: 'armor', label: 'Armor' }, { value: 'skipPrompt', label: 'Set the waiting question aside' },
      ] },
      { key: 'value', label: 'Value', kind: 'integer', min: 0, max: 20, default: 0 },
      { key: 'note', label: 'Why', kind: 'text', default: '' },
    ] },
];
