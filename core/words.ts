/** A count with its noun, singular for exactly one: "1 encounter", "3 encounters", "1,200 lines". */
export const counted = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
