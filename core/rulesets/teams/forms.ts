// Teams' action panel, drawn from data (core/encounter/types.ts ActionForm): one form per GM event a person enters
// by hand, the prep screen's setup tools included. Rolls are not fields: the app rolls them or the GM types them in.
import type { ActionForm } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import * as rules from './rules.ts';

const attributeChoices = [{ value: 'strength', label: 'Strength' }, { value: 'dexterity', label: 'Dexterity' }] as const;
const proficiencyChoices = [{ value: 'martial', label: 'Martial' }, { value: 'finesse', label: 'Finesse' }, { value: 'none', label: 'None' }] as const;
const testDiceField = { key: 'dice', label: 'Test dice', kind: 'text', optional: true, help: 'Like d6+d4: for Resuscitate, Short Task and Resist (the chapter does not name them).' } as const;

const HOLD_LABELS: Record<combat.HoldChoice, string> = { weaponAndShield: 'Weapon and shield', weapon: 'Weapon only', shield: 'Shield only', nothing: 'Nothing' };

const teamKeyHelp = 'A team key: party, gm, or one added with Add team.';

/** The prep screen's setup tools (§2.2 initiative, surprise, objectives): drawn when their event is allowed. */
const setupForms: readonly ActionForm[] = [
  {
    type: 'ADD_TEAM', phase: 'setup', label: 'Add team', help: 'A third (or further) team; it comes last in initiative until the order is set.',
    fields: [
      { key: 'label', label: 'Team name', kind: 'text' },
      { key: 'key', label: 'Key', kind: 'text', help: 'Lower-case letters, digits or dashes, e.g. town.' },
    ],
  },
  {
    type: 'SET_TEAM', phase: 'setup', label: 'Move to a team',
    fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant', who: 'any' }, { key: 'team', label: 'Team', kind: 'text', help: teamKeyHelp }],
  },
  {
    type: 'SET_INSTIGATOR', phase: 'setup', label: 'Who started it', help: 'Their team goes first, the team they attacked second (§2.2); their first turn opens with that attack (R-T1b).',
    fields: [
      { key: 'combatantId', label: 'Instigator (none: the GM sets the order)', kind: 'combatant', who: 'any', optional: true, emptyAs: 'null' },
      { key: 'attackedTeam', label: 'Team attacked (needed with three or more teams)', kind: 'text', optional: true, help: teamKeyHelp },
    ],
  },
  {
    type: 'SET_TEAM_ORDER', phase: 'setup', label: 'Team order', help: 'Every team key once, first to act first, e.g. party, gm, town (R-T1).',
    fields: [{ key: 'teams', label: 'Teams in order', kind: 'text' }],
  },
  {
    type: 'DECLARE_SURPRISE', phase: 'setup', label: 'Surprise', help: 'The surprising team acts alone in round 0, with anyone who cannot be surprised.',
    fields: [{ key: 'team', label: 'Team with surprise (empty: none)', kind: 'text', optional: true, emptyAs: 'null', help: teamKeyHelp }],
  },
  {
    type: 'SET_UNSURPRISABLE', phase: 'setup', label: 'Cannot be surprised',
    fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant', who: 'any' }, { key: 'unsurprisable', label: 'Cannot be surprised (danger sense...)', kind: 'flag', default: true }],
  },
  {
    type: 'SET_OBJECTIVE', label: 'Objective', help: 'Free text per team; it may change between rounds (R-T11).',
    fields: [{ key: 'team', label: 'Team', kind: 'text', help: teamKeyHelp }, { key: 'text', label: 'Objective', kind: 'text' }],
  },
];

export const actionForms: readonly ActionForm[] = [
  ...setupForms,
  {
    type: 'ATTACK', label: 'Attack', shortcut: 'a', help: 'Attribute + combat skill + proficiency against evasion; 1 action (§2.4).',
    fields: [
      { key: 'attackerId', label: 'Attacker', kind: 'combatant', who: 'any', defaultActive: true },
      { key: 'targetId', label: 'Target', kind: 'combatant', who: 'foes' },
      { key: 'attribute', label: 'Attribute', kind: 'choice', choices: attributeChoices },
      { key: 'proficiency', label: 'Proficiency', kind: 'choice', choices: proficiencyChoices },
      { key: 'via', label: 'As', kind: 'choice', choices: [{ value: 'turn', label: 'An action of the turn' }, { value: 'command', label: 'A commanded action' }, { value: 'readied', label: 'A readied action (reaction)' }] },
      { key: 'sneak', label: 'Sneak attack (the target cannot see the attacker)', kind: 'flag', optional: true },
      { key: 'flanking', label: 'Flanking (enemies on two opposite sides)', kind: 'flag', optional: true },
      { key: 'advantage', label: 'Extra advantage (− for disadvantage)', kind: 'integer', min: -3, max: 3, default: 0 },
      {
        key: 'nearbyIds', label: 'Others within 1 m of the target (stray shots)', kind: 'combatants', who: 'any', initial: 'none', optional: true,
        help: 'A thrown or projectile attack with a luck roll of 1 hits one of them at random (R-T16).',
      },
      {
        key: 'interceptorIds', label: 'Allies of the target close enough to intercept', kind: 'combatants', who: 'foes', initial: 'none', optional: true,
        help: 'None ticked: every ally of the target is offered Intercept.',
      },
      {
        key: 'declaredParry', label: 'Parry declared before the roll (R-T19 off)', kind: 'choice', optional: true,
        choices: [{ value: 'weapon', label: 'With the weapon' }, { value: 'shield', label: 'With the shield' }],
        help: 'Only in campaigns where a parry is declared before the hit is known.',
      },
    ],
  },
  {
    type: 'ACTION', label: 'Action', shortcut: 'c', help: 'The action table (§2.3): costs, limits and extended actions.',
    fields: [
      {
        key: 'kind', label: 'Action', kind: 'choice',
        choices: (['move', 'sprint', 'brandish', 'interact', 'standUp', 'seekCover', 'guard', 'wait', 'ready', 'command', 'resuscitate', 'shortTask', 'other'] as const).map((k) => ({ value: k, label: combat.ACTION_LABELS[k] })),
      },
      { key: 'actorId', label: 'Who (a commanded ally, or the active one)', kind: 'combatant', who: 'allies', defaultActive: true },
      { key: 'targetId', label: 'Target (Command, Resuscitate)', kind: 'combatant', who: 'allies', optional: true },
      { key: 'hold', label: 'Now holding (Brandish)', kind: 'choice', optional: true, help: 'Empty: another item, weapon and shield stay as they were.', choices: combat.HOLD_CHOICES.map((h) => ({ value: h, label: HOLD_LABELS[h] })) },
      { key: 'name', label: 'Name (Short Task, other)', kind: 'text', optional: true },
      { key: 'cost', label: 'Actions it takes (other)', kind: 'integer', min: 1, max: 30, optional: true, default: '' },
      { key: 'trigger', label: 'Trigger (Ready)', kind: 'text', optional: true },
      { key: 'readied', label: 'Readied action (Ready)', kind: 'text', optional: true },
      { key: 'difficulty', label: 'Difficulty', kind: 'integer', min: 1, max: 99, optional: true, default: '', help: 'Resuscitate suggests the target\'s missing health (R-T13).' },
      testDiceField,
      { key: 'bonus', label: 'Test bonus', kind: 'integer', min: -20, max: 20, optional: true, default: '' },
      { key: 'note', label: 'Note', kind: 'text', optional: true },
    ],
  },
  {
    type: 'FREE_ACTION', label: 'Free action', shortcut: 'f',
    fields: [
      { key: 'kind', label: 'Free action', kind: 'choice', choices: [{ value: 'step', label: 'Step (1 m, instead of a Move)' }, { value: 'dropProne', label: 'Drop Prone' }, { value: 'dropItem', label: 'Drop Item' }] },
      { key: 'item', label: 'Item dropped (Drop Item)', kind: 'choice', optional: true, choices: [{ value: 'weapon', label: 'The weapon' }, { value: 'shield', label: 'The shield' }], help: 'Left empty: some other item.' },
    ],
  },
  {
    type: 'KILLING_STRIKE', label: 'Killing strike', shortcut: 'k', help: 'Three actions; a test with advantage against the unconscious target\'s constitution (§2.4 step 15).',
    fields: [
      { key: 'targetId', label: 'Unconscious target', kind: 'combatant', who: 'notActive' },
      { key: 'attribute', label: 'Attribute', kind: 'choice', choices: attributeChoices },
      { key: 'proficiency', label: 'Proficiency', kind: 'choice', choices: proficiencyChoices },
    ],
  },
  {
    type: 'REACTION_TEST', label: 'Reaction test', shortcut: 'r', help: 'Dodge, Fortify (1 stamina) or Resist (1 focus) against an effect.',
    fields: [
      { key: 'reactorId', label: 'Who reacts', kind: 'combatant', who: 'any' },
      { key: 'reaction', label: 'Reaction', kind: 'choice', choices: [{ value: 'dodge', label: 'Dodge' }, { value: 'fortify', label: 'Fortify' }, { value: 'resist', label: 'Resist' }] },
      { key: 'difficulty', label: 'Difficulty', kind: 'integer', min: 1, max: 99, default: 10 },
      { key: 'against', label: 'Against', kind: 'text' },
      testDiceField,
      { key: 'bonus', label: 'Test bonus', kind: 'integer', min: -20, max: 20, optional: true, default: '' },
    ],
  },
  {
    type: 'FIRE_READIED', label: 'Readied action fires', help: 'Uses the reaction (R-T7).',
    fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant', who: 'any' }, { key: 'note', label: 'Note', kind: 'text', optional: true }],
  },
  {
    type: 'APPLY_DAMAGE', label: 'Damage', shortcut: 'd', help: 'Physical and elemental damage is reduced by deflection (minimum 1); typeless is not.',
    fields: [
      { key: 'targetId', label: 'Who', kind: 'combatant', who: 'any' },
      { key: 'amount', label: 'Damage', kind: 'integer', min: 1, max: 999, default: 1 },
      { key: 'damageType', label: 'Type', kind: 'choice', optional: true, choices: [{ value: '', label: 'Typeless (not reduced)' }, ...rules.DAMAGE_TYPES.filter((t) => t !== 'typeless').map((t) => ({ value: t, label: t[0]!.toUpperCase() + t.slice(1) }))] },
      { key: 'nonlethal', label: 'Nonlethal source', kind: 'flag', optional: true },
      { key: 'source', label: 'Source', kind: 'text' },
    ],
  },
  {
    type: 'EXTENDED', label: 'Abandon extended action', help: 'Free, at any point of the owner\'s turn; actions already paid are not refunded (R-T10).',
    fields: [{ key: 'decision', label: 'Extended action', kind: 'choice', choices: [{ value: 'abandon', label: 'Abandon it' }] }],
  },
  {
    type: 'HEAL', label: 'Heal', shortcut: 'h', help: 'Endurance or health back, up to its maximum; it does not wake the unconscious (Resuscitate does).',
    fields: [
      { key: 'targetId', label: 'Who', kind: 'combatant', who: 'any' },
      { key: 'pool', label: 'Restores', kind: 'choice', choices: [{ value: 'endurance', label: 'Endurance' }, { value: 'health', label: 'Health' }] },
      { key: 'amount', label: 'Amount', kind: 'integer', min: 1, max: 999, default: 1 },
      { key: 'source', label: 'Source', kind: 'text' },
    ],
  },
  {
    type: 'OVERRIDE', label: 'Override', shortcut: 'o', help: 'Logged as a GM override; dismisses a decision about that combatant.',
    fields: [
      { key: 'targetId', label: 'Who', kind: 'combatant', who: 'any' },
      { key: 'field', label: 'What', kind: 'choice', choices: combat.OVERRIDE_FIELDS.map((f) => ({ value: f, label: f })) },
      { key: 'value', label: 'Value (1 yes, 0 no for flags)', kind: 'integer', min: 0, max: 999 },
      { key: 'note', label: 'Why', kind: 'text' },
    ],
  },
];
