// Types for scripts/bench-compare.mjs (its test is TypeScript).
interface Figure {
  section: string;
  name: string;
}
export declare function matchReference<T extends Figure>(results: readonly T[], reference: readonly T[]): (T | undefined)[];
