// Factions' action forms (RULES.md §3.2–§3.6): what a person enters by hand, the setup ones on the prep screen, the
// rest in the runner. The decisions that are
// prompts (initiative, FAT, first faction, a faction's go, reactions, stunts, damage rolls, morale, durability) come
// as prompt buttons; rolls come from the dice entry.
import type { ActionForm } from '../../encounter/types.ts';

const note = { key: 'note', label: 'Note', kind: 'text', optional: true } as const;
const flag = (key: string, label: string, help?: string) => ({ key, label, kind: 'flag', optional: true, ...(help ? { help } : {}) }) as const;

export const factionsActionForms: readonly ActionForm[] = [
  // setup (the prep screen draws these while the encounter is in setup; faction keys or labels are typed in)
  { type: 'ADD_FACTION', phase: 'setup', label: 'Add a faction', help: 'A third (or further) faction joins the end of the cycle (R-F1).',
    fields: [{ key: 'key', label: 'Key', kind: 'text', default: '', help: 'Lower-case letters, digits, - or _ (e.g. wolves).' }, { key: 'label', label: 'Name', kind: 'text', default: '' }] },
  { type: 'RENAME_FACTION', phase: 'setup', label: 'Rename a faction', fields: [{ key: 'key', label: 'Faction', kind: 'text', default: '' }, { key: 'label', label: 'New name', kind: 'text', default: '' }] },
  { type: 'SET_FACTION', phase: 'setup', label: 'Move to a faction', help: 'The combatant joins that faction and its morale group.',
    fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant' }, { key: 'faction', label: 'Faction', kind: 'text', default: '' }] },
  { type: 'SET_FACTION_CYCLE', phase: 'setup', label: 'Faction cycle', help: 'With three or more factions: every faction once, in the order they take their goes (R-F1).',
    fields: [{ key: 'keys', label: 'Cycle', kind: 'text', default: '', help: 'Factions separated by commas: party, bandits, wolves.' }] },
  { type: 'SET_GROUP', phase: 'setup', label: 'Morale group', help: 'A GM-defined group inside one faction checks morale on its own (R-F7, R-F8); by default each faction is one group.',
    fields: [{ key: 'label', label: 'Group name', kind: 'text', default: '' }, { key: 'memberIds', label: 'Members', kind: 'combatants', initial: 'none' }] },
  { type: 'SET_INITIATIVE', phase: 'setup', label: 'Who started it', help: 'The faction that started the fight holds the initiative; leave it unset to be asked (or roll) at the start.',
    fields: [{ key: 'faction', label: 'Faction', kind: 'text', default: '' }] },
  { type: 'SET_CONCEALED', phase: 'setup', label: 'Ambusher', help: 'Characters concealed at the start play a bonus turn before round 1 (§3.2 rule 8, R-F2).',
    fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant' }, { key: 'concealed', label: 'Concealed', kind: 'flag', default: true }] },
  { type: 'SET_OPTIONAL_RULES', phase: 'setup', label: 'Optional rules', help: 'Murdham\'s optional rules for this fight.',
    fields: [
      { key: 'fastSlow', label: 'Fast action threshold (a d20 each round: fast and slow phases)', kind: 'flag', default: false },
      { key: 'chaos', label: 'Chaos of combat (15 seconds to declare a turn)', kind: 'flag', default: false },
    ] },
  // running
  { type: 'ATTACK', label: 'Attack', shortcut: 'a', help: 'A main action; hits automatically unless a WIT save is needed (unseen melee target, beyond half range, while moving, indirect, challenging).',
    fields: [
      { key: 'attackerId', label: 'Attacker', kind: 'combatant', defaultActive: true },
      { key: 'targetIds', label: 'Targets', kind: 'combatants', who: 'notActive', initial: 'none', help: 'One target; several only for a blast (with a zone, add those on its borders).' },
      { key: 'kind', label: 'Kind', kind: 'choice', choices: [{ value: 'melee', label: 'Melee' }, { value: 'ranged', label: 'Ranged' }, { value: 'indirect', label: 'Indirect' }] },
      { key: 'weapon', label: 'With', kind: 'choice', choices: [{ value: 'weapon', label: 'Weapon' }, { value: 'unarmed', label: 'Unarmed (d4 impaired)' }, { value: 'improvised', label: 'Improvised weapon' }, { value: 'shield', label: 'Shield' }] },
      { key: 'die', label: 'Damage die', kind: 'integer', min: 4, max: 12, optional: true, help: 'd4, d6, d8, d10 or d12: needed for improvised weapons and shields; otherwise the sheet\'s weapon die.' },
      { key: 'effect', label: 'Effect', kind: 'choice', choices: [{ value: 'damage', label: 'Damage' }, { value: 'disarm', label: 'Disarm (STR save)' }, { value: 'grapple', label: 'Grapple (STR save)' }] },
      { key: 'range', label: 'Range', kind: 'choice', choices: [{ value: 'withinHalf', label: 'Within half range' }, { value: 'beyondHalf', label: 'Beyond half range' }] },
      { key: 'protection', label: 'Target behind', kind: 'choice', choices: [{ value: 'none', label: 'Nothing' }, { value: 'cover', label: 'Cover (+1 armour)' }, { value: 'barrier', label: 'A barrier' }] },
      flag('unseen', 'Target not visible'),
      flag('moving', 'Moves this turn', 'R-F11: the zone move before or after the attack'),
      flag('challenging', 'Challenging circumstances'),
      flag('holdBack', 'Holds back (impaired)'),
      flag('concealment', 'Concealment (impaired)'),
      flag('enhanced', 'Enhanced'),
      flag('pierces', 'Punches through cover'),
      flag('border', 'Target on the zone\'s border'),
      flag('blast', 'Blast'),
      { key: 'zone', label: 'Blast zone', kind: 'text', optional: true },
      { key: 'neighbourZones', label: 'Neighbouring zones', kind: 'text', optional: true, help: 'Ranged blast with a WIT save: the zones next to the blast zone, separated by commas ("none" if there are none); a miss deviates to one at random.' },
      { key: 'reaction', label: 'As a reaction', kind: 'choice', optional: true, choices: [{ value: 'opportunity', label: 'Opportunity attack (the mover moves away)' }] },
      { key: 'stunt', label: 'Stunt offered instead of damage', kind: 'text', optional: true },
    ] },
  { type: 'FINAL_BLOW', label: 'Final blow', shortcut: 'f', help: 'A main action on a nearby incapacitated target: it dies, no reaction.',
    fields: [{ key: 'attackerId', label: 'Attacker', kind: 'combatant', defaultActive: true }, { key: 'targetId', label: 'Target', kind: 'combatant', who: 'notActive' }] },
  { type: 'MOVE_ZONE', label: 'Move a zone', shortcut: 'm', help: 'Once a turn, before, between or after the actions; moving without sneaking reveals a concealed character.',
    fields: [{ key: 'to', label: 'To zone', kind: 'text', default: '' }, flag('sneaking', 'Sneaking')] },
  { type: 'BONUS_ACTION', label: 'Bonus action', shortcut: 'b', help: 'One per turn, two instead of the main action; a swap takes both. Armour cannot be changed in a fight.',
    fields: [
      { key: 'kind', label: 'What', kind: 'choice', choices: [
        { value: 'pickUp', label: 'Pick up' }, { value: 'drop', label: 'Put down' }, { value: 'equip', label: 'Equip' }, { value: 'unequip', label: 'Unequip' },
        { value: 'swap', label: 'Swap two items (2 bonus actions)' }, { value: 'consumable', label: 'Use a consumable' }, { value: 'interact', label: 'Simple interaction' }, { value: 'speak', label: 'Say a few words' },
      ] },
      { key: 'item', label: 'Item', kind: 'choice', optional: true, choices: [{ value: 'weapon', label: 'Weapon' }, { value: 'shield', label: 'Shield' }, { value: 'armour', label: 'Armour' }, { value: 'other', label: 'Something else' }] },
      note,
    ] },
  { type: 'MAIN_ACTION', label: 'Main action', help: 'A complex interaction, invoking a power (reveals a concealed character), or another main action.',
    fields: [{ key: 'kind', label: 'What', kind: 'choice', choices: [{ value: 'interact', label: 'Complex interaction' }, { value: 'power', label: 'Invoke a power' }, { value: 'other', label: 'Other' }] }, note] },
  { type: 'SHOVE', label: 'Shove', help: 'While grabbing: frees the held character, half a zone away and/or into a hazard.',
    fields: [{ key: 'to', label: 'Into zone', kind: 'text', optional: true }, { key: 'hazard', label: 'Into hazard', kind: 'text', optional: true }] },
  { type: 'SURRENDER', label: 'Surrender', help: 'Takes the whole turn (R-F9).', fields: [] },
  { type: 'DECLARATION_TIMEOUT', label: '15 s passed', help: 'Chaos of combat: nothing declared in time, the turn is lost.', fields: [] },
  { type: 'OFFER_STUNT', label: 'Offer a stunt', help: 'After the WIT save, before the target reacts; the GM approves it by sending it.',
    fields: [{ key: 'text', label: 'Effect instead of damage', kind: 'text', default: '' }] },
  { type: 'APPLY_DAMAGE', label: 'Damage', shortcut: 'd', help: 'Final damage (armour already taken off) through the health model.',
    fields: [
      { key: 'targetId', label: 'Who', kind: 'combatant' },
      { key: 'amount', label: 'Amount', kind: 'integer', min: 1, max: 99, default: 1 },
      { key: 'source', label: 'Source', kind: 'text', default: '' },
      { key: 'byId', label: 'Dealt by', kind: 'combatant', optional: true, help: 'An enemy harming a surrendered character lifts the surrender (R-F9).' },
    ] },
  { type: 'HEAL', label: 'Heal', fields: [{ key: 'targetId', label: 'Who', kind: 'combatant' }, { key: 'amount', label: 'Amount', kind: 'integer', min: 1, max: 99, default: 1 }, { key: 'source', label: 'Source', kind: 'text', default: '' }] },
  { type: 'SET_STATUS', label: 'Status', help: 'Revealed or hidden again (concealed), unaware, immune to fear.',
    fields: [
      { key: 'combatantId', label: 'Who', kind: 'combatant' },
      { key: 'status', label: 'Status', kind: 'choice', choices: [{ value: 'concealed', label: 'Concealed' }, { value: 'unaware', label: 'Unaware' }, { value: 'fearImmune', label: 'Immune to fear' }] },
      { key: 'on', label: 'On', kind: 'flag', default: true },
      note,
    ] },
  { type: 'SET_ZONE', label: 'Place in zone', fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant' }, { key: 'zone', label: 'Zone', kind: 'text', default: '' }] },
  { type: 'CHASE', label: 'Chase', help: 'A long chase: a group AGI save, unless one side is faster or keeps the pace longer.',
    fields: [
      { key: 'fleeingIds', label: 'Fleeing', kind: 'combatants' },
      { key: 'edge', label: 'Edge', kind: 'choice', choices: [{ value: 'none', label: 'Neither (group AGI save)' }, { value: 'fleeingFaster', label: 'The fleeing are faster' }, { value: 'pursuersFaster', label: 'The pursuers are faster' }] },
    ] },
  { type: 'OVERRIDE', label: 'Override', help: 'A GM override; the log records it with your note.',
    fields: [
      { key: 'field', label: 'What', kind: 'choice', choices: [
        { value: 'health', label: 'Health (a number)' }, { value: 'incapacitated', label: 'Incapacitated (on/off)' }, { value: 'dying', label: 'Dying (on/off)' },
        { value: 'dead', label: 'Dead (on/off)' }, { value: 'acted', label: 'Has acted this round (on/off)' }, { value: 'surrendered', label: 'Surrendered (on/off)' },
        { value: 'concealed', label: 'Concealed (on/off)' }, { value: 'unaware', label: 'Unaware (on/off)' }, { value: 'moraleImmune', label: 'Morale immune (on/off)' },
        { value: 'moraleFailed', label: 'Morale failed (on/off)' }, { value: 'disarmed', label: 'Disarmed (on/off)' }, { value: 'released', label: 'Release from a grab' },
        { value: 'weapon', label: 'Weapon (intact/damaged/destroyed)' }, { value: 'shield', label: 'Shield (intact/damaged/destroyed)' }, { value: 'armour', label: 'Armour (intact/damaged/destroyed)' },
        { value: 'cancelAttack', label: 'Call off the attack under way' }, { value: 'skipMorale', label: 'Skip the rest of the morale phase' },
      ] },
      { key: 'targetId', label: 'Who', kind: 'combatant', optional: true },
      { key: 'value', label: 'Value', kind: 'text', optional: true, help: 'A number for health; on/off for flags; intact, damaged or destroyed for gear.' },
      { key: 'note', label: 'Why', kind: 'text', default: '' },
    ] },
];
