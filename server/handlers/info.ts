import type { HandlerContext } from '../app.ts';
import { GmError, type AppInfo, type RulesetInfo } from '../../core/api/contract.ts';
import { RULESETS } from '../../core/rulesets/registry.ts';

export const infoHandlers = {
  'app:info': (ctx: HandlerContext): AppInfo => ({
    version: ctx.options.version,
    transport: ctx.options.transport,
    databasePath: ctx.options.databasePath,
    rulesets: RULESETS.map((r) => ({ id: r.id, name: r.name, summary: r.summary })),
  }),
  'rulesets:get': (_ctx: HandlerContext, input: { id: string }): RulesetInfo => {
    const r = RULESETS.find((ruleset) => ruleset.id === input.id);
    if (!r) throw new GmError(`This app has no ruleset called ${input.id}.`, 'notFound');
    return { id: r.id, name: r.name, summary: r.summary, sheet: r.sheet, options: r.options, actionForms: r.encounter.actionForms ?? [], severalTargets: r.encounter.severalTargets ?? null, conditionNames: r.encounter.conditionNames ?? [], lateInitiative: r.encounter.lateInitiative === true, recoveryForms: r.recovery.forms, records: r.records.categories, readers: (r.imports?.readers ?? []).map(({ key, label, extensions }) => ({ key, label, extensions })) };
  },
};
