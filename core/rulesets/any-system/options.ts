// "Any system"'s rulings: the game is the table's, so every rule the app applies is an option, with the default of
// the most common table (D&D 5e). Numbered R-A1…; each is the app's own reading (docs/rulesets/any-system.md).
import { choice, defineOptions, flag, number, optionsReader, type OptionValuesOf } from '../options.ts';

export const INITIATIVE_DICE = [20, 12, 10, 8, 6] as const;

export const anySystemOptions = defineOptions([
  // ---- turn order ----
  choice('initiative', {
    ruling: 'R-A1', default: 'rolled', label: 'Initiative', origin: 'app',
    description: 'The app rolls the initiative die and adds the modifier (or the GM types the faces of a physical die); or the GM types each total as the table called it.',
    choices: [
      { value: 'rolled', label: 'Rolled: die + modifier' },
      { value: 'typed', label: 'Typed: the GM enters each total' },
    ],
  }),
  choice('initiativeDie', {
    ruling: 'R-A2', default: 'd20', label: 'Initiative die', origin: 'app',
    description: 'The die rolled for initiative (d20 for D&D and Pathfinder).',
    choices: INITIATIVE_DICE.map((sides) => ({ value: `d${sides}`, label: `d${sides}` })),
  }),
  choice('tieBreak', {
    ruling: 'R-A3', default: 'modifier', label: 'Initiative ties', origin: 'app',
    description: 'Equal totals: the higher initiative modifier goes first, and a tie still left is the GM\'s to order (a roll-off at the table); or party members go before the others; or the GM orders every tie. A fixed entry (a lair action) loses every tie.',
    choices: [
      { value: 'modifier', label: 'Higher modifier, then the GM' },
      { value: 'partyFirst', label: 'Party first, then the GM' },
      { value: 'gm', label: 'The GM orders every tie' },
    ],
  }),
  choice('order', {
    ruling: 'R-A4', default: 'highFirst', label: 'Turn order', origin: 'app',
    description: 'The highest initiative acts first (most games), or the lowest.',
    choices: [
      { value: 'highFirst', label: 'High first' },
      { value: 'lowFirst', label: 'Low first' },
    ],
  }),
  // ---- damage and health ----
  choice('zeroHpParty', {
    ruling: 'R-A5', default: 'dying', label: 'Party member at 0 HP', origin: 'app',
    description: 'A party member brought to 0 HP is down and dying (death saves, when they are on), down without saves, or dead.',
    choices: [
      { value: 'dying', label: 'Down and dying' },
      { value: 'down', label: 'Down (no saves)' },
      { value: 'dead', label: 'Dead' },
    ],
  }),
  choice('zeroHpNpc', {
    ruling: 'R-A6', default: 'dead', label: 'Enemies and others at 0 HP', origin: 'app',
    description: 'Anyone else brought to 0 HP is dead, or down (the GM decides later).',
    choices: [
      { value: 'dead', label: 'Dead' },
      { value: 'down', label: 'Down' },
    ],
  }),
  flag('deathSaves', {
    ruling: 'R-A7', default: true, label: 'Death saves', origin: 'app',
    description: 'A dying combatant rolls a d20 at the start of its turn: 10 or more a success, a 1 two failures, a 20 back up at 1 HP; three successes stable, three failures dead. Damage while dying is a failure (a critical hit two); any healing wakes it.',
  }),
  number('reactionsPerRound', {
    ruling: 'R-A8', default: 1, min: 0, max: 3, label: 'Reactions per round', origin: 'app',
    description: 'How many reactions each combatant has, refreshed at the start of its own turn; 0: reactions are not tracked.',
  }),
  flag('concentration', {
    ruling: 'R-A9', default: true, label: 'Concentration reminders', origin: 'app',
    description: 'A combatant may be marked concentrating on a spell; when it takes damage the app reminds the GM of the check (DC 10 or half the damage, whichever is higher). The GM records the result: a failure ends concentration. Never automatic.',
  }),
  // ---- rests ----
  choice('longRestHp', {
    ruling: 'R-A10', default: 'full', label: 'A long rest restores', origin: 'app',
    description: 'A long rest brings HP back to the maximum (or half the maximum, at least), sets temporary HP to 0, and ends the injuries that last until a long rest.',
    choices: [
      { value: 'full', label: 'HP to the maximum' },
      { value: 'half', label: 'Half the maximum HP' },
      { value: 'none', label: 'No HP (the GM sets it)' },
    ],
  }),
  choice('shortRestHp', {
    ruling: 'R-A11', default: 'typed', label: 'A short rest restores', origin: 'app',
    description: 'A short rest heals the HP the GM types for each character (hit dice spent, a song of rest), up to the maximum; or nothing.',
    choices: [
      { value: 'typed', label: 'HP the GM types' },
      { value: 'none', label: 'Nothing' },
    ],
  }),
]);

/** The campaign's rulings, typed by their declarations (a value missing or of another shape reads as its default). */
export type AnySystemOptions = OptionValuesOf<typeof anySystemOptions>;
/** The campaign's rulings, typed: `rulingsOf(ctx.options).deathSaves`, read once per options object (a sort asks on every comparison). */
export const rulingsOf = optionsReader(anySystemOptions);
