// Whole-campaign export and import, and importing one encounter into a campaign (server/import.ts does the work).
import type { HandlerContext } from '../app.ts';
import { exportCampaign, importCampaign, importEncounter } from '../import.ts';
import { requireCampaign } from './campaigns.ts';
import { importTable } from '../import-table.ts';

export const importHandlers = {
  'exports:campaign': (ctx: HandlerContext, input: { id: string }) => exportCampaign(ctx, requireCampaign(ctx, input.id)),
  'imports:campaign': (ctx: HandlerContext, input: { content: string }) => importCampaign(ctx, input.content),
  'imports:encounter': (ctx: HandlerContext, input: { campaignId: string; content: string }) =>
    importEncounter(ctx, requireCampaign(ctx, input.campaignId), input.content),
  'imports:table': (ctx: HandlerContext, input: { campaignId: string; reader: string; content: string }) => importTable(ctx, input),
};
