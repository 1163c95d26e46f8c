import type { RulesetDefinition } from '../types.ts';
import { thrumOptions } from './options.ts';
import { thrumSheet } from './sheet.ts';

/** Registered with its sheet and rulings; its encounter flow is still to come. */
export const thrum: RulesetDefinition = {
  id: 'thrum',
  name: 'Thrum',
  summary: 'Rolled initiative with delay, Round Zero, stances, fatigue and stress against tolerances, wounds.',
  sheet: thrumSheet,
  options: thrumOptions,
};
