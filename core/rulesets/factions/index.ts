import type { RulesetDefinition } from '../types.ts';
import { factionsOptions } from './options.ts';
import { factionsSheet } from './sheet.ts';

/** Registered with its sheet and rulings; its encounter flow is still to come. */
export const factions: RulesetDefinition = {
  id: 'factions',
  name: 'Factions',
  summary: 'Murdham: factions alternate or pass, zones, reactions that take the turn, morale.',
  sheet: factionsSheet,
  options: factionsOptions,
};
