// "Any system"'s character sheet: the numbers every initiative tracker keeps (Improved Initiative, Shieldmaiden,
// Obsidian's Initiative Tracker) for the games the app does not model. The GM enters them; the app keeps them exact.
import { pool, type SheetSchema } from '../sheet.ts';

export const anySystemSheet: SheetSchema = {
  mainPool: { label: 'HP', keys: ['hpMax', 'hp'] },
  fields: [
    ...pool('hp', 'HP', { default: 10, min: 0, max: 9999 }, {
      group: 'Health', maxLabel: 'Maximum HP', maxShort: 'Max HP', help: 'Current hit points; healing never raises them above the maximum.',
    }),
    {
      kind: 'integer', key: 'tempHp', label: 'Temporary HP', short: 'Temp HP', group: 'Health', default: 0, min: 0, max: 999,
      help: 'Lost before HP; a new grant keeps the higher of the two (they do not add up).',
    },
    { kind: 'integer', key: 'ac', label: 'Armor Class', short: 'AC', group: 'Combat', default: 10, min: 0, max: 99 },
    {
      kind: 'integer', key: 'initiativeModifier', label: 'Initiative modifier', short: 'Init. mod.', group: 'Combat', default: 0, min: -20, max: 30,
      help: 'Added to the initiative die; ties go to the higher modifier under the default ruling.',
    },
    { kind: 'text', key: 'notes', label: 'Notes', group: 'Details', default: '', maxLength: 4000, multiline: true },
  ],
};
