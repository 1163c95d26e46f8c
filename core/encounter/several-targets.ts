// Several targets at once (issue 28 point 4): a ruleset names the forms its selection bar uses (types.ts
// SeveralTargets) from its own action forms.
import type { ActionForm, SeveralTargets } from './types.ts';

/** One of a ruleset's action forms by its event type: a missing one is a mistake in the ruleset's folder. */
function formOf(forms: readonly ActionForm[], type: string): ActionForm {
  const form = forms.find((f) => f.type === type);
  if (!form) throw new Error(`No action form for ${type}.`);
  return form;
}

/** The harm and healing among a ruleset's action forms (no `heal` type: no healing in the fight). */
export const severalTargetsOf = (forms: readonly ActionForm[], harm: string, heal?: string): SeveralTargets => ({
  harm: formOf(forms, harm),
  ...(heal ? { heal: formOf(forms, heal) } : {}),
});
