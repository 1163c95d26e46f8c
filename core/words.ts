/**
 * A whole number with its thousands grouped as English writes them ("12,500"), as `n.toLocaleString('en')` does, for
 * the first screen's counts: a page's first Intl call loads the locale's data, 20-60 ms of the campaign list's start
 * in Chromium. Other numbers go to Intl.
 */
export const grouped = (n: number): string => (Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en'));

/** A count with its noun, singular for exactly one: "1 encounter", "3 encounters", "1,200 lines". */
export const counted = (n: number, one: string, many = `${one}s`): string => `${grouped(n)} ${n === 1 ? one : many}`;

/**
 * A side's or faction's name read as a plural when it ends in a plural "s" ("Enemies", "Bandits", "Wolves"), as a
 * singular otherwise ("Party", "The Watch", "Boss"). The GM types these names; the rule is a guess that is right for
 * the names the rulesets give and the names GMs usually pick.
 */
export const isPluralName = (name: string): boolean => /[^s'’]s$/i.test(name.trim());

/** The name as an owner: "Enemies' go", "Party's go". */
export const possessive = (name: string): string => (isPluralName(name) ? `${name}'` : `${name}'s`);

/** The name with its verb in agreement: agrees('Enemies', 'sends', 'send') → "Enemies send"; "Party sends". */
export const agrees = (name: string, one: string, many: string): string => `${name} ${isPluralName(name) ? many : one}`;
