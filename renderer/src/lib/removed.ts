// Who left the fight dead and who left it alive (issue 28, point 7): the dead are struck through, one who fled,
// escaped, retreated or surrendered is not. The ruleset says so (`dead`); a GM's own reason "dead" or "killed" too.
import type { CombatantView } from '../../../core/encounter/types.ts';

const DEATH = /\b(dead|died|dies|killed|slain)\b/i;

export const diedOut = (c: Pick<CombatantView, 'dead' | 'removedReason'>): boolean => Boolean(c.dead) || DEATH.test(c.removedReason ?? '');
