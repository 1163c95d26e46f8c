import type { RulesetDefinition } from '../types.ts';
import { severalTargetsOf } from '../../encounter/several-targets.ts';
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
  // Thrum's harm is Load (Fatigue or Stress; a negative amount sheds it): no separate healing form.
  encounter: { ...thrumEncounter, actionForms: thrumActionForms, severalTargets: severalTargetsOf(thrumActionForms, 'APPLY_LOAD') },
  recovery: thrumRecovery,
};
