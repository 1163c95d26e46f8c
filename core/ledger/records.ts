// What the campaign's lasting records are: harm (injuries and wounds) or marks that ride the same channel
// (Teams' death and cheat-death, Factions' gear), and which ones never heal.

/** Record categories that are not harm: they are never counted as open injuries or wounds. */
const NOT_HARM = new Set(['death', 'cheatDeath', 'gear']);

export const isHarm = (category: string): boolean => !NOT_HARM.has(category);

/** A record marked permanent by its ruleset (Enigma permanent injuries, Cairn-Errant permanent wounds). */
export const isPermanentRecord = (data: Record<string, unknown>): boolean => data['permanent'] === true || data['severity'] === 'permanent';
