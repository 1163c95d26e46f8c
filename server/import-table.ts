// Another tracker's file into a campaign (`imports:table`): one of the ruleset's readers reads it (or refuses it with
// a sentence), then the party, the NPC templates and the encounters are written through the same handlers a GM's own
// entries go through, inside the handler's one write transaction — a refusal anywhere leaves nothing behind.
// A party member or template whose name the campaign already has (ignoring case) is kept as it is, not doubled, so
// importing the same file twice adds only its encounters again.
import type { HandlerContext } from './app.ts';
import { GmError, type EncounterSummary, type TableImportResult } from '../core/api/contract.ts';
import { ImportRefusal, type ImportedCombatant, type ImportedTable, type RulesetImports } from '../core/rulesets/importers.ts';
import type { RulesetDefinition } from '../core/rulesets/types.ts';
import { listCharacters } from '../db/campaigns.ts';
import { campaignHandlers, requireCampaign, rulesetOf } from './handlers/campaigns.ts';
import { encounterHandlers } from './handlers/encounters.ts';

/** The ruleset's imports, or the sentence saying it has none. */
function importsOf(ruleset: RulesetDefinition): RulesetImports {
  if (!ruleset.imports?.readers.length) throw new GmError(`A ${ruleset.name} campaign does not read other trackers' files.`);
  return ruleset.imports;
}

function readTable(imports: RulesetImports, readerKey: string, content: string): ImportedTable {
  const reader = imports.readers.find((r) => r.key === readerKey);
  if (!reader) throw new GmError(`There is no reader called “${readerKey.slice(0, 64)}”: choose one of ${imports.readers.map((r) => r.label).join(', ')}.`);
  try {
    return reader.read(content);
  } catch (error) {
    if (error instanceof ImportRefusal) throw new GmError(error.message);
    throw error;
  }
}

export function importTable(ctx: HandlerContext, input: { campaignId: string; reader: string; content: string }): TableImportResult {
  const campaign = requireCampaign(ctx, input.campaignId);
  const ruleset = rulesetOf(campaign);
  const imports = importsOf(ruleset);
  const table = readTable(imports, input.reader, input.content);

  /** The campaign's characters by role and name (lower case), the archived ones too: a name is not reused. */
  const known = new Map(listCharacters(ctx.db, campaign.id).map((c) => [`${c.role}:${c.name.toLowerCase()}`, c.id]));
  const result: TableImportResult = { source: table.source, party: { added: [], kept: [] }, templates: { added: [], kept: [] }, encounters: [], warnings: [...table.warnings] };

  /** The id of the party member or template for this line: the one already there by name, or a new one. */
  const characterFor = (line: ImportedCombatant): string => {
    const role = line.player ? 'pc' : 'npc';
    const key = `${role}:${line.name.toLowerCase()}`;
    const tally = line.player ? result.party : result.templates;
    const existing = known.get(key);
    if (existing !== undefined) {
      if (!tally.added.includes(line.name) && !tally.kept.includes(line.name)) tally.kept.push(line.name);
      return existing;
    }
    try {
      const created = campaignHandlers['characters:create'](ctx, { campaignId: campaign.id, role, name: line.name, sheet: imports.sheetOf(line) });
      known.set(key, created.id);
      tally.added.push(line.name);
      return created.id;
    } catch (error) {
      if (error instanceof GmError) throw new GmError(`${line.name}: ${error.message}`);
      throw error;
    }
  };

  for (const line of table.characters) characterFor(line);
  for (const line of table.templates) characterFor(line);
  for (const encounter of table.encounters) {
    const summary: EncounterSummary = encounterHandlers['encounters:create'](ctx, { campaignId: campaign.id, name: encounter.name });
    const pcIds = [...new Set(encounter.combatants.filter((c) => c.player).map(characterFor))];
    const npcs = encounter.combatants.filter((c) => !c.player).map((c) => (c.template === undefined
      ? { templateId: characterFor(c), count: c.count }
      : { templateId: characterFor({ ...c, name: c.template }), count: c.count, names: Array.from({ length: c.count }, () => c.name) }));
    if (pcIds.length || npcs.length) encounterHandlers['encounters:addFromCampaign'](ctx, { id: summary.id, pcIds, npcs });
    result.encounters.push(summary);
  }
  return result;
}
