// Plays a demo campaign through the handler table from inside the demo's one write transaction: every request is
// validated by its input schema and handled exactly as the UI's would be, so the demo's fights are real event logs
// with their log lines, carry-over and ledger entries. Every die is typed in, so the demo is the same every time.
import { inputSchemas, type CampaignSummary, type EncounterDetail, type HandlerInput, type HandlerName, type HandlerResults } from '../../core/api/contract.ts';
import type { GmEvent, RollRequest } from '../../core/encounter/types.ts';
import type { DemoFight as PlayedFight, RulesetDemo } from '../../core/rulesets/demo.ts';
import type { RulesetId } from '../../core/rulesets/types.ts';
import { getCampaign, listCampaigns } from '../../db/campaigns.ts';
import { toCampaignSummary } from '../../db/rows.ts';
// The table itself, read at call time (app.ts and the handler modules import each other).
import { handlers, type HandlerContext } from '../app.ts';

/** The synchronous requests a demo makes: preparing a campaign, running its fight, and the ledger. */
type DemoRequest = Extract<HandlerName, `campaigns:${'create' | 'list'}` | `characters:${string}` | `encounters:${string}` | `ledger:${string}`>;

/** A script mistake, not something a GM did: it reaches the app log and rolls the whole demo back. */
export class DemoScriptError extends Error {
  override name = 'DemoScriptError';
}

/** Runs one handler with its input validated, inside the caller's transaction. */
export function call<N extends DemoRequest>(ctx: HandlerContext, name: N, input: HandlerInput<N>): HandlerResults[N] {
  const parsed = inputSchemas[name].safeParse(input);
  if (!parsed.success) throw new DemoScriptError(`The demo's ${name} request is malformed: ${parsed.error.issues[0]?.message ?? 'unknown problem'}.`);
  const handler = handlers[name] as (c: HandlerContext, i: unknown) => HandlerResults[N];
  return handler(ctx, parsed.data);
}

export { typed } from '../../core/rulesets/demo.ts';

/** The rolls of `requests` the event does not carry faces for. */
function untyped(event: GmEvent, requests: readonly RollRequest[]): RollRequest[] {
  return requests.filter((request) => {
    let value: unknown = event;
    for (const key of request.path) value = value && typeof value === 'object' ? (value as Record<string | number, unknown>)[key] : undefined;
    const faces = (value as { faces?: unknown } | undefined)?.faces;
    return !Array.isArray(faces) || faces.length === 0;
  });
}

function requireTyped(event: GmEvent, requests: readonly RollRequest[]): void {
  const missing = untyped(event, requests);
  if (missing.length) throw new DemoScriptError(`The demo's ${event.type} leaves ${missing.map((r) => r.label).join(', ')} to the app's dice.`);
}

/** One demo encounter being played: combatants by name, events appended through `encounters:append`. */
export class DemoFight implements PlayedFight {
  constructor(
    private readonly ctx: HandlerContext,
    readonly encounterId: string,
    private detail: EncounterDetail,
  ) {}

  get view(): EncounterDetail['view'] {
    return this.detail.view;
  }

  /** The combatant id of a name in the order of battle ("Goblin 1"). */
  id(name: string): string {
    const combatant = this.detail.view.order.find((c) => c.name === name);
    if (!combatant) throw new DemoScriptError(`The demo fight has no combatant called ${name}.`);
    return combatant.id;
  }

  /** Appends one GM event; every roll it needs must already be typed in. */
  act(event: GmEvent): void {
    requireTyped(event, call(this.ctx, 'encounters:preview', { id: this.encounterId, event }).rolls);
    this.detail = call(this.ctx, 'encounters:append', { id: this.encounterId, event });
  }
}

/** A ruleset's demo with the ruleset it is played under (from the ruleset's definition). */
export type DemoCampaign = RulesetDemo & { rulesetId: RulesetId };

/** "Name", or "Name (2)", "Name (3)"… when the demo was loaded before: a demo never overwrites a campaign. */
function freeName(ctx: HandlerContext, name: string): string {
  const taken = new Set(listCampaigns(ctx.db, true).map((c) => c.name));
  if (!taken.has(name)) return name;
  for (let n = 2; ; n += 1) if (!taken.has(`${name} (${n})`)) return `${name} (${n})`;
}

/** Creates the campaign, its characters and its first session, plays the fight, then its recovery. */
export function playDemo(ctx: HandlerContext, demo: DemoCampaign): CampaignSummary {
  const campaign = call(ctx, 'campaigns:create', { name: freeName(ctx, demo.name), rulesetId: demo.rulesetId, options: demo.options ?? {} });
  const ledger = (event: GmEvent) => {
    requireTyped(event, call(ctx, 'ledger:preview', { campaignId: campaign.id, event }).rolls);
    call(ctx, 'ledger:append', { campaignId: campaign.id, event });
  };
  const party: Record<string, string> = {};
  for (const pc of demo.party) party[pc.name] = call(ctx, 'characters:create', { campaignId: campaign.id, role: 'pc', name: pc.name, sheet: pc.sheet }).id;
  const npcs = demo.npcs.map((npc) => ({
    templateId: call(ctx, 'characters:create', { campaignId: campaign.id, role: 'npc', name: npc.name, sheet: npc.sheet }).id,
    count: npc.count,
  }));

  ledger({ type: 'SESSION_START', title: demo.session.title });
  const encounter = call(ctx, 'encounters:create', { campaignId: campaign.id, name: demo.encounter });
  const prepared = call(ctx, 'encounters:addFromCampaign', { id: encounter.id, pcIds: Object.values(party), npcs });
  const fight = new DemoFight(ctx, encounter.id, prepared);
  demo.fight(fight);
  if (fight.view.phase !== 'ended') throw new DemoScriptError(`The demo fight “${demo.encounter}” did not end.`);
  for (const event of demo.recovery(party)) ledger(event);
  ledger({ type: 'SESSION_END', notes: demo.session.recap });
  return toCampaignSummary(getCampaign(ctx.db, campaign.id)!);
}
