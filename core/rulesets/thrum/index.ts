import type { RulesetDefinition } from '../types.ts';
import { thrumEncounter } from './encounter.ts';
import { thrumActionForms } from './forms.ts';
import { thrumRecovery } from './ledger.ts';
import { thrumOptions } from './options.ts';
import { thrumSheet } from './sheet.ts';

export const thrum: RulesetDefinition = {
  id: 'thrum',
  name: 'Thrum',
  summary: 'Rolled initiative with delay, Round Zero, stances, fatigue and stress against tolerances, wounds.',
  sheet: thrumSheet,
  options: thrumOptions,
  encounter: { ...thrumEncounter, actionForms: thrumActionForms },
  recovery: thrumRecovery,
};
