import type { HandlerContext } from '../app.ts';
import type { AppInfo } from '../../core/api/contract.ts';
import { RULESETS } from '../../core/rulesets/registry.ts';

export const infoHandlers = {
  'app:info': (ctx: HandlerContext): AppInfo => ({
    version: ctx.options.version,
    transport: ctx.options.transport,
    databasePath: ctx.options.databasePath,
    rulesets: RULESETS.map((r) => ({ id: r.id, name: r.name, summary: r.summary, sheet: r.sheet, options: r.options, actionForms: r.encounter.actionForms ?? [], severalTargets: r.encounter.severalTargets ?? null, conditionNames: r.encounter.conditionNames ?? [], lateInitiative: r.encounter.lateInitiative === true, recoveryForms: r.recovery.forms, records: r.records.categories, readers: (r.imports?.readers ?? []).map(({ key, label, extensions }) => ({ key, label, extensions })) })),
  }),
};
