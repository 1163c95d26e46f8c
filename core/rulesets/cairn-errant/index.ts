import type { RulesetDefinition } from '../types.ts';
import { severalTargetsOf } from '../../encounter/several-targets.ts';
import { cairnErrantEncounter } from './encounter.ts';
import { cairnErrantActionForms } from './forms.ts';
import { cairnErrantRecovery } from './ledger.ts';
import { cairnErrantOptions } from './options.ts';
import { cairnErrantSheet } from './sheet.ts';

export const cairnErrant: RulesetDefinition = {
  id: 'cairn-errant',
  name: 'Cairn-Errant',
  summary: 'Block, Dodge & Parry: declared intents, quick and full turns, fatigue, critical damage and wounds.',
  sheet: cairnErrantSheet,
  options: cairnErrantOptions,
  // No healing by an amount among its action forms: the selection bar offers Damage only.
  encounter: { ...cairnErrantEncounter, actionForms: cairnErrantActionForms, severalTargets: severalTargetsOf(cairnErrantActionForms, 'APPLY_DAMAGE') },
  recovery: cairnErrantRecovery,
};
