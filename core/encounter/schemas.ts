// Payload pieces shared by every ruleset's event schema.
import * as z from 'zod';

import { NAME_MAX } from './limits.ts';

export { BATCH_MAX, NAME_MAX } from './limits.ts';

export const nameSchema = z
  .string({ error: 'A name must be text.' })
  .trim()
  .min(1, { error: 'A name cannot be empty.' })
  .max(NAME_MAX, { error: `A name is at most ${NAME_MAX} characters.` });

export const idSchema = z.string({ error: 'An id must be text.' }).min(1, { error: 'An id cannot be empty.' }).max(64, { error: 'An id is at most 64 characters.' });

export const shortTextSchema = z.string({ error: 'This must be text.' }).trim().max(500, { error: 'This text is at most 500 characters.' });

export const combatantSeedSchema = z.strictObject({
  id: idSchema,
  name: nameSchema,
  side: z.string().max(32),
  characterId: idSchema.nullable(),
  sheet: z.record(z.string().max(64), z.union([z.string().max(4000), z.number(), z.boolean()])),
  carried: z.record(z.string().max(64), z.unknown()).optional(),
});

/**
 * What a stored event carries beside the ruleset's own fields when it ended a fight: the GM's changes to what it
 * carries onto the characters (from the review), and why. The store adds them (server/encounter-store.ts); the
 * engine and an import read them with this schema.
 */
export const carryAnnotationSchema = z.strictObject({
  carryAdjust: z.array(z.strictObject({
    characterId: z.string().min(1).max(64),
    key: z.string().min(1).max(64),
    value: z.number().int().min(-999).max(9999),
  })).min(1).max(500),
  carryReason: z.string().max(200).optional(),
});
