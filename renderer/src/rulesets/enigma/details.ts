// Enigma's row and Mortal Peril details, typed: the view fills them (core/rulesets/enigma/encounter.ts), while the
// shared `CombatantView.details` and `EncounterPrompt.details` are `unknown` for every ruleset. These two readers are
// the one place in the renderer that says which type an Enigma encounter's details have.
import type { CombatantView, EncounterPrompt } from '../../../../core/encounter/types.ts';
import type { EnigmaRowDetails, PerilDetails } from '../../../../core/rulesets/enigma/encounter.ts';

export type { EnigmaRowDetails, PerilDetails };

/** A row's details as Enigma's view made them (undefined for none). */
export const rowDetails = (c: CombatantView | null | undefined): EnigmaRowDetails | undefined => c?.details as EnigmaRowDetails | undefined;

/** The Mortal Peril prompt's details as Enigma's view made them. */
export const perilDetails = (prompt: EncounterPrompt): PerilDetails => prompt.details as PerilDetails;
