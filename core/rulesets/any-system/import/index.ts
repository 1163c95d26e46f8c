// The files another tracker writes that an "Any system" campaign reads: each importer turns one into an
// ImportedTable (party, templates, encounters) or refuses it with a sentence, and writes nothing.
import { csvRoster } from './csv.ts';
import { improvedInitiative } from './improved-initiative.ts';
import { obsidianInitiativeTracker } from './obsidian.ts';
import type { TableImporter } from '../../importers.ts';

export const TABLE_IMPORTERS: readonly TableImporter[] = [improvedInitiative, obsidianInitiativeTracker, csvRoster];
