// Thrum's action forms for the runner (RULES.md §5.3–§5.5): what a person enters by hand. Prompt answers
// (initiative, Panic and Incapacity rolls, defence choice and outcome, buffs, resolving a triggered effect) come as
// prompt buttons; the rolls (initiative, Panic, Incapacity, the contested roll) have forms too, so their dice can be
// typed from physical dice. Squares on the map (POSITION, SET_POSITION, paths) need the board; these forms are the board-less way.
import type { ActionForm } from '../../encounter/types.ts';

const note = { key: 'note', label: 'Note', kind: 'text', optional: true } as const;

export const thrumActionForms: readonly ActionForm[] = [
  { type: 'SET_SIDE', phase: 'setup', label: 'Side', help: 'Before combat: an allied NPC fights with the party.',
    fields: [
      { key: 'combatantId', label: 'Who', kind: 'combatant' },
      { key: 'side', label: 'Side', kind: 'choice', choices: [{ value: 'party', label: 'Party' }, { value: 'foes', label: 'Foes' }] },
    ] },
  { type: 'SET_CONDITION', phase: 'setup', label: 'Win or Defeat Condition', help: 'Combat ends when the GM marks it met (after the action under way resolves), besides a whole side being down.',
    fields: [
      { key: 'kind', label: 'Kind', kind: 'choice', choices: [{ value: 'win', label: 'Win Condition' }, { value: 'defeat', label: 'Defeat Condition' }] },
      { key: 'text', label: 'Condition', kind: 'text', default: '' },
    ] },
  { type: 'CONDITION_MET', label: 'Condition met', help: 'The Win or Defeat Condition with this number (in the order set in prep) is met: combat ends once the triggers and the action under way resolve.',
    fields: [{ key: 'n', label: 'Condition number', kind: 'integer', min: 1, max: 10, default: 1 }] },
  { type: 'MOVE', label: 'Move', shortcut: 'm', help: 'Up to Speed (less Slowed); no moving on after the Action unless it allows it.',
    fields: [
      { key: 'squares', label: 'Squares', kind: 'integer', min: 1, max: 60, default: 1 },
      { key: 'teleport', label: 'Teleport', kind: 'flag', optional: true, help: 'Crosses nothing between: no terrain, elevation or enemies on the way; still costs its distance.' },
      note,
    ] },
  { type: 'FORCED_MOVE', label: 'Forced move', shortcut: 'f', help: 'Someone moves a character: a drop of two or more levels is rolled for (Endurance or Reflex against the environment\'s 2d6 + the height); a failure is +1 Slowed, and +1 Dazed if the movement it spent this turn reaches its lowered Speed.',
    fields: [
      { key: 'combatantId', label: 'Who is moved', kind: 'combatant', who: 'any' },
      { key: 'squares', label: 'Squares', kind: 'integer', min: 1, max: 60, default: 1 },
      { key: 'drop', label: 'Drop of 2+ levels', kind: 'choice', help: 'Rolled: 2d6 + Endurance (Resilience) or Reflex (Evasion) against the environment\'s 2d6 + the height; roll for me or type the faces. A given result only where the campaign hands contests to the GM (R-H11).',
        choices: [{ value: 'none', label: 'No such drop' }, { value: 'endurance', label: 'Roll Endurance' }, { value: 'reflex', label: 'Roll Reflex' }, { value: 'success', label: 'Drop roll succeeds (R-H11: the GM\'s result)' }, { value: 'failure', label: 'Drop roll fails (R-H11: the GM\'s result)' }] },
      { key: 'levels', label: 'Levels dropped', kind: 'integer', min: 2, max: 40, optional: true, default: '', help: 'The height difference, the roll\'s opposition.' },
      { key: 'source', label: 'Moved by', kind: 'text', default: '', optional: true },
    ] },
  { type: 'ATTACK', label: 'Attack', shortcut: 'a', help: 'The defender chooses Resilience, Evasion or Resolve before the roll; declare Overexert before rolling.',
    fields: [
      { key: 'attackerId', label: 'Attacker', kind: 'combatant', defaultActive: true },
      { key: 'ability', label: 'Ability', kind: 'text', default: 'Basic Attack' },
      { key: 'art', label: 'Art modifier', kind: 'integer', min: -5, max: 10, optional: true, default: '', help: 'Empty: a Basic Attack, with the highest Art modifier.' },
      { key: 'attackType', label: 'Type', kind: 'choice', choices: [{ value: 'physical', label: 'Physical' }, { value: 'mental', label: 'Mental' }] },
      { key: 'targets', label: 'Targets', kind: 'combatants', who: 'notActive', wrap: 'targetId', initial: 'none', help: 'Allies too for an area (R-H10).' },
      { key: 'covered', label: 'Targets in cover (no map)', kind: 'combatants', who: 'notActive', initial: 'none', optional: true, help: '+1 Bane each; on the map cover is computed.' },
      { key: 'fatigue', label: 'Fatigue on a hit', kind: 'integer', min: 0, max: 20, default: 1 },
      { key: 'stress', label: 'Stress on a hit', kind: 'integer', min: 0, max: 20, default: 0 },
      { key: 'ranged', label: 'Ranged', kind: 'flag', optional: true },
      { key: 'range', label: 'Range', kind: 'integer', min: 0, max: 200, optional: true, default: '', help: 'Checked against the map; without one the GM judges it.' },
      { key: 'area', label: 'Area', kind: 'flag', optional: true },
      { key: 'squares', label: 'Area squares', kind: 'text', optional: true, default: '', help: 'On the map: "x,y" each, e.g. "2,1 2,2 3,1 3,2". Range and Obstructed are judged on the area; everyone inside is a target.' },
      { key: 'finisher', label: 'Finisher', kind: 'flag', optional: true },
      { key: 'adjacentEnemies', label: 'Adjacent enemies', kind: 'integer', min: 0, max: 10, optional: true, help: '+1 bane each on a ranged attack' },
      { key: 'overexert', label: 'Overexert stress', kind: 'integer', min: 0, max: 10, optional: true },
      { key: 'extraBoons', label: 'Extra boons', kind: 'integer', min: 0, max: 10, optional: true },
      { key: 'extraBanes', label: 'Extra banes', kind: 'integer', min: 0, max: 10, optional: true },
      note,
    ] },
  // The prompt's buttons let the app roll these; the forms take the faces of physical dice (GUIDE §5).
  { type: 'ROLL_INITIATIVE', label: 'Initiative roll', help: '2d6 + Initiative modifier, one combatant at a time. Roll for me, or type the faces of physical dice.',
    fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant', who: 'any' }] },
  { type: 'PANIC_ROLL', label: 'Panic Roll', help: 'A Frayed combatant at the start of its turn: 2d6 + Resolve must exceed the Stress Load. Roll for me, or type the faces.',
    fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant', who: 'any', defaultActive: true }] },
  { type: 'INCAPACITY_ROLL', label: 'Incapacity Roll', help: 'After an Exhausted combatant\'s Action, or a Finisher on an Exhausted target: 2d6 + Resilience must exceed the Fatigue Load. Roll for me, or type the faces.',
    fields: [{ key: 'combatantId', label: 'Who', kind: 'combatant', who: 'any', defaultActive: true }] },
  { type: 'DEFENSE_RESULT', label: 'Contested roll', shortcut: 'r',
    help: 'The attack roll against the defence roll, once the defence is chosen: 2d6 + modifier each, a d6 more per net Boon (drop the lowest) or Bane (drop the highest). Roll for me, or type the faces of physical dice (R-H11).',
    fields: [] },
  { type: 'USE_ABILITY', label: 'Ability', shortcut: 'u',
    fields: [{ key: 'ability', label: 'Ability', kind: 'text', default: '' }, { key: 'overexert', label: 'Overexert stress', kind: 'integer', min: 0, max: 10, optional: true }, note] },
  { type: 'SET_STANCE', label: 'Stance', shortcut: 's', help: 'Ends the old stance and the turn\'s Move and Action.',
    fields: [{ key: 'stance', label: 'Stance', kind: 'text', default: '' }] },
  { type: 'DELAY', label: 'Delay', shortcut: 'y', help: 'Once per round, permanently: act after the chosen character, or at the end of the round.',
    fields: [{ key: 'combatantId', label: 'Who delays', kind: 'combatant', defaultActive: true }, { key: 'afterId', label: 'After', kind: 'combatant', optional: true, emptyAs: 'null', help: 'empty: the end of the round' }] },
  { type: 'RESUSCITATE', label: 'Resuscitate', help: 'Ends Incapacitated. Its range is in Basic Combat Abilities, another chapter: the GM checks it.',
    fields: [{ key: 'targetId', label: 'Whom', kind: 'combatant', who: 'notActive' }] },
  { type: 'TRIGGER', label: 'Trigger', shortcut: 't', help: 'A trigger fired: the effects resolve top-down in initiative order; one set off while another resolves goes first (last in, first out).',
    fields: [
      { key: 'trigger', label: 'Trigger', kind: 'text', default: '' },
      { key: 'effects', label: 'Whose effects respond', kind: 'combatants', who: 'any', wrap: 'ownerId', initial: 'none', help: 'Out of turn: the current stance\'s triggered effect.' },
    ] },
  { type: 'APPLY_LOAD', label: 'Load', shortcut: 'l', help: 'Fatigue or Stress from any source; a negative amount removes load.',
    fields: [
      { key: 'targetId', label: 'Who', kind: 'combatant' },
      { key: 'load', label: 'Load', kind: 'choice', choices: [{ value: 'fatigue', label: 'Fatigue' }, { value: 'stress', label: 'Stress' }] },
      { key: 'amount', label: 'Amount', kind: 'integer', min: -20, max: 20, default: 1 },
      { key: 'source', label: 'Source', kind: 'text', default: '' },
    ] },
  { type: 'APPLY_STATUS', label: 'Status', help: 'Stunned, Slowed, Dazed, Vulnerable or another named status.',
    fields: [
      { key: 'targetId', label: 'Who', kind: 'combatant' },
      { key: 'status', label: 'Status', kind: 'text', default: 'Vulnerable' },
      { key: 'stacks', label: 'Stacks', kind: 'integer', min: 1, max: 10, default: 1 },
      { key: 'source', label: 'Source', kind: 'text', default: '' },
    ] },
  { type: 'CLEAR_STATUS', label: 'Clear status',
    fields: [{ key: 'targetId', label: 'Who', kind: 'combatant' }, { key: 'status', label: 'Status', kind: 'text', default: '' }] },
  { type: 'OVERRIDE', label: 'Override', help: 'A GM override changes one number outright; the log records it with your note.',
    fields: [
      { key: 'targetId', label: 'Who', kind: 'combatant' },
      { key: 'field', label: 'What', kind: 'choice', choices: [
        { value: 'fatigueLoad', label: 'Fatigue load' }, { value: 'stressLoad', label: 'Stress load' }, { value: 'fatigueTolerance', label: 'Fatigue tolerance' },
        { value: 'stressTolerance', label: 'Stress tolerance' }, { value: 'wounds', label: 'Wounds' }, { value: 'incapacitated', label: 'Incapacitated (0/1)' },
      ] },
      { key: 'value', label: 'Value', kind: 'integer', min: 0, max: 60, default: 0 },
      { key: 'note', label: 'Why', kind: 'text', default: '' },
    ] },
];
