// The demo campaigns, one per ruleset, in the order the rulesets are registered: each ruleset's definition carries
// its own (core/rulesets/<id>/demo.ts).
import { GmError, type CampaignSummary } from '../../core/api/contract.ts';
import { RULESETS } from '../../core/rulesets/registry.ts';
import type { HandlerContext } from '../app.ts';
import { DemoScriptError, playDemo, type DemoCampaign } from './runner.ts';

/** One demo per registered ruleset, in the registry's order, each with the id it is played under. */
export function demoCampaigns(): DemoCampaign[] {
  return RULESETS.map((ruleset) => ({ ...ruleset.demo, rulesetId: ruleset.id }));
}

/**
 * Creates the demo campaigns inside the caller's transaction. A rule refusing a demo step is a mistake in the
 * demo, not the GM's: it is raised as an internal error (logged, everything rolled back), never as a GM sentence.
 */
export function createDemoCampaigns(ctx: HandlerContext): CampaignSummary[] {
  return demoCampaigns().map((demo) => {
    try {
      return playDemo(ctx, demo);
    } catch (error) {
      if (error instanceof GmError) throw new DemoScriptError(`The ${demo.rulesetId} demo was refused: ${error.message}`);
      throw error;
    }
  });
}
