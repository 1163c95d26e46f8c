// Campaigns and their characters (party members and NPC templates).
import type { HandlerContext } from '../app.ts';
import { GmError, type CampaignDetail, type CampaignSummary, type Character } from '../../core/api/contract.ts';
import { effectiveConditions, readConditionList } from '../../core/encounter/condition-list.ts';
import { optionsValidator, type OptionValues } from '../../core/rulesets/options.ts';
import { RULESETS, findRuleset } from '../../core/rulesets/registry.ts';
import { normalizeSheet, sheetValidator, type SheetValues } from '../../core/rulesets/sheet.ts';
import type { RulesetDefinition } from '../../core/rulesets/types.ts';
import * as campaigns from '../../db/campaigns.ts';
import { listEncounters } from '../../db/encounters.ts';
import { toCampaignSummary, toCharacter, toEncounterSummary, toInjuryRecord, type CampaignRow, type CharacterRow } from '../../db/rows.ts';
import { openInjuries } from '../../db/consequences.ts';
import { describeInvalid } from '../app.ts';
import { clockOf } from './ledger.ts';

export function requireCampaign(ctx: HandlerContext, id: string): CampaignRow {
  const row = campaigns.getCampaign(ctx.db, id);
  if (!row) throw new GmError('That campaign does not exist (it may have been removed).', 'notFound');
  return row;
}

export function requireCharacter(ctx: HandlerContext, id: string): CharacterRow {
  const row = campaigns.getCharacter(ctx.db, id);
  if (!row) throw new GmError('That character does not exist (it may have been removed).', 'notFound');
  return row;
}

export function rulesetOf(row: { ruleset_id: string }): RulesetDefinition {
  const ruleset = findRuleset(row.ruleset_id);
  if (!ruleset) throw new GmError(`This campaign uses a ruleset this version does not know (${row.ruleset_id}).`, 'invalid');
  return ruleset;
}

/** The ruleset a new campaign names, or a sentence listing the registered ones (nothing is written). */
export function requireKnownRuleset(id: string): RulesetDefinition {
  const ruleset = findRuleset(id);
  if (!ruleset) throw new GmError(`The ruleset must be one of: ${RULESETS.map((r) => r.id).join(', ')}.`, 'invalid');
  return ruleset;
}

function validOptions(ruleset: RulesetDefinition, options: OptionValues): OptionValues {
  const parsed = optionsValidator(ruleset.options).safeParse(options);
  if (!parsed.success) throw new GmError(describeInvalid(parsed.error), 'invalid');
  return parsed.data;
}

function validSheet(ruleset: RulesetDefinition, sheet: SheetValues): SheetValues {
  const parsed = sheetValidator(ruleset.sheet).safeParse(normalizeSheet(ruleset.sheet, sheet));
  if (!parsed.success) throw new GmError(describeInvalid(parsed.error), 'invalid');
  for (const key of Object.keys(sheet)) {
    if (!ruleset.sheet.fields.some((f) => f.key === key)) throw new GmError(`${ruleset.name} sheets have no field "${key.slice(0, 40)}".`, 'invalid');
  }
  return parsed.data;
}

/** How many of each character's open records the campaign's detail carries (the newest; the home shows them). */
export const OPEN_INJURIES_SENT = 8;

function detail(ctx: HandlerContext, id: string): CampaignDetail {
  const row = requireCampaign(ctx, id);
  const open = openInjuries(ctx.db, id, OPEN_INJURIES_SENT);
  const party = JSON.parse(row.party_json) as Record<string, unknown>;
  const own = readConditionList(row.conditions_json);
  return {
    ...toCampaignSummary(row),
    options: JSON.parse(row.options_json),
    party,
    partyBadges: findRuleset(row.ruleset_id)?.recovery.partyBadges?.(party) ?? [],
    conditionNames: effectiveConditions(own, findRuleset(row.ruleset_id)?.encounter.conditionNames),
    conditionNamesOwn: own !== null,
    characters: campaigns.listCharacters(ctx.db, id).map(toCharacter),
    encounters: listEncounters(ctx.db, id).map((row) => ({ ...toEncounterSummary(row), sessionId: row.session_id ?? null, day: row.day ?? null })),
    injuries: open.rows.map(toInjuryRecord),
    openInjuries: open.counts,
    ...clockOf(ctx, id),
  };
}

/** The condition names a campaign's fights suggest: its own list, or its ruleset's (core/encounter/condition-list.ts). */
export function conditionNamesOf(row: Pick<CampaignRow, 'ruleset_id' | 'conditions_json'>): readonly string[] {
  return effectiveConditions(readConditionList(row.conditions_json), findRuleset(row.ruleset_id)?.encounter.conditionNames);
}

const summary = (ctx: HandlerContext, id: string): CampaignSummary => toCampaignSummary(requireCampaign(ctx, id));

export const campaignHandlers = {
  'campaigns:list': (ctx: HandlerContext, input: { includeArchived?: boolean | undefined }) =>
    campaigns.listCampaigns(ctx.db, input.includeArchived ?? false).map(toCampaignSummary),

  'campaigns:create': (ctx: HandlerContext, input: { name: string; rulesetId: string; options?: OptionValues | undefined }) => {
    const ruleset = requireKnownRuleset(input.rulesetId);
    const options = validOptions(ruleset, input.options ?? {});
    const id = ctx.newId();
    const now = ctx.now();
    campaigns.insertCampaign(ctx.db, {
      id, name: input.name, ruleset_id: ruleset.id, options_json: JSON.stringify(options), party_json: '{}',
      archived_at: null, created_at: now, updated_at: now,
    });
    ctx.changed({ area: 'campaigns', id });
    return summary(ctx, id);
  },

  'campaigns:get': (ctx: HandlerContext, input: { id: string }) => detail(ctx, input.id),

  'campaigns:rename': (ctx: HandlerContext, input: { id: string; name: string }) => {
    requireCampaign(ctx, input.id);
    campaigns.updateCampaign(ctx.db, input.id, { name: input.name }, ctx.now());
    ctx.changed({ area: 'campaigns', id: input.id });
    return summary(ctx, input.id);
  },

  'campaigns:archive': (ctx: HandlerContext, input: { id: string; archived: boolean }) => {
    requireCampaign(ctx, input.id);
    campaigns.updateCampaign(ctx.db, input.id, { archived_at: input.archived ? ctx.now() : null }, ctx.now());
    ctx.changed({ area: 'campaigns', id: input.id });
    return summary(ctx, input.id);
  },

  'campaigns:setOptions': (ctx: HandlerContext, input: { id: string; options: OptionValues }) => {
    const row = requireCampaign(ctx, input.id);
    const options = validOptions(rulesetOf(row), { ...JSON.parse(row.options_json), ...input.options });
    campaigns.updateCampaign(ctx.db, input.id, { options_json: JSON.stringify(options) }, ctx.now());
    ctx.changed({ area: 'campaigns', id: input.id });
    return detail(ctx, input.id);
  },

  /** The campaign's own condition list (checked by the input schema), or null to go back to its ruleset's. */
  'campaigns:setConditions': (ctx: HandlerContext, input: { id: string; names: string[] | null }) => {
    requireCampaign(ctx, input.id);
    campaigns.updateCampaign(ctx.db, input.id, { conditions_json: input.names === null ? null : JSON.stringify(input.names) }, ctx.now());
    ctx.changed({ area: 'campaigns', id: input.id });
    return detail(ctx, input.id);
  },

  'characters:create': (ctx: HandlerContext, input: { campaignId: string; role: 'pc' | 'npc'; name: string; sheet: SheetValues }): Character => {
    const campaign = requireCampaign(ctx, input.campaignId);
    const sheet = validSheet(rulesetOf(campaign), input.sheet);
    const id = ctx.newId();
    const now = ctx.now();
    campaigns.insertCharacter(ctx.db, {
      id, campaign_id: campaign.id, role: input.role, name: input.name, sheet_json: JSON.stringify(sheet), state_json: '{}',
      archived_at: null, created_at: now, updated_at: now,
    });
    campaigns.touchCampaign(ctx.db, campaign.id, now);
    ctx.changed({ area: 'campaigns', id: campaign.id });
    return toCharacter(requireCharacter(ctx, id));
  },

  'characters:update': (ctx: HandlerContext, input: { id: string; name: string; sheet: SheetValues }): Character => {
    const character = requireCharacter(ctx, input.id);
    const sheet = validSheet(rulesetOf(requireCampaign(ctx, character.campaign_id)), input.sheet);
    campaigns.updateCharacter(ctx.db, input.id, { name: input.name, sheet_json: JSON.stringify(sheet) }, ctx.now());
    ctx.changed({ area: 'campaigns', id: character.campaign_id });
    return toCharacter(requireCharacter(ctx, input.id));
  },

  'characters:archive': (ctx: HandlerContext, input: { id: string; archived: boolean }): Character => {
    const character = requireCharacter(ctx, input.id);
    campaigns.updateCharacter(ctx.db, input.id, { archived_at: input.archived ? ctx.now() : null }, ctx.now());
    ctx.changed({ area: 'campaigns', id: character.campaign_id });
    return toCharacter(requireCharacter(ctx, input.id));
  },
};
