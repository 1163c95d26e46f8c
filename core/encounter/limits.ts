// Limits the page shows beside its fields, without the schemas that hold them (core/encounter/schemas.ts): the page's
// start loads this and not zod.

export const NAME_MAX = 80;

/** The most parts one BATCH (several targets at once, core/encounter/kernel.ts) carries. */
export const BATCH_MAX = 50;
