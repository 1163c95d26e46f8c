// Sample campaigns, one per ruleset, each with a finished encounter and a recovery entry (server/demo/).
import type { CampaignSummary } from '../../core/api/contract.ts';
import type { HandlerContext } from '../app.ts';
import { createDemoCampaigns } from '../demo/index.ts';

export const demoHandlers = {
  'campaigns:demo': (ctx: HandlerContext, _input: Record<string, never>): CampaignSummary[] => createDemoCampaigns(ctx),
};
