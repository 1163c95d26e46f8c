// The demo campaigns, one per ruleset, in the order the rulesets are listed.
import { GmError, type CampaignSummary } from '../../core/api/contract.ts';
import { RULESET_IDS, type RulesetId } from '../../core/rulesets/types.ts';
import type { HandlerContext } from '../app.ts';
import { cairnErrantDemo } from './cairn-errant.ts';
import { enigmaDemo } from './enigma.ts';
import { factionsDemo } from './factions.ts';
import { DemoScriptError, playDemo, type DemoCampaign } from './runner.ts';
import { teamsDemo } from './teams.ts';
import { thrumDemo } from './thrum.ts';

/**
 * One demo per ruleset (the record type makes a missing one a compile error). Read when called, not at load time:
 * the handler table and the demos import each other.
 */
export function demoCampaigns(): DemoCampaign[] {
  const byRuleset: Record<RulesetId, DemoCampaign> = {
    enigma: enigmaDemo, teams: teamsDemo, factions: factionsDemo, 'cairn-errant': cairnErrantDemo, thrum: thrumDemo,
  };
  return RULESET_IDS.map((id) => byRuleset[id]);
}

/**
 * Creates the five demo campaigns inside the caller's transaction. A rule refusing a demo step is a mistake in the
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
