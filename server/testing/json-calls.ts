// Counted, not timed: how often JSON.parse and JSON.stringify run while a piece of work runs, and how many
// characters they read or write, so a test can hold parsing and serialising flat as a fight or a campaign grows.
// Spies on the global JSON; the caller undoes it with `restore()` or vi.restoreAllMocks().
import { vi } from 'vitest';

export interface JsonCalls {
  /** JSON.parse calls, and the characters of the texts they were given. */
  readonly parses: number;
  readonly parsedCharacters: number;
  /** JSON.stringify calls, and the characters of the texts they gave. */
  readonly stringifies: number;
  readonly stringifiedCharacters: number;
  /** Puts JSON.parse and JSON.stringify back (the counts stay as they are). */
  restore(): void;
}

/** From now on, counts every JSON.parse and JSON.stringify; the returned object holds the running counts. */
export function countJsonCalls(): JsonCalls {
  const { parse, stringify } = JSON;
  const count = {
    parses: 0, parsedCharacters: 0, stringifies: 0, stringifiedCharacters: 0,
    restore() {
      parseSpy.mockRestore();
      stringifySpy.mockRestore();
    },
  };
  const parseSpy = vi.spyOn(JSON, 'parse').mockImplementation((...args: Parameters<typeof JSON.parse>) => {
    count.parses += 1;
    count.parsedCharacters += args[0].length;
    return parse(...args);
  });
  const stringifySpy = vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
    const text = stringify(...args);
    count.stringifies += 1;
    count.stringifiedCharacters += text?.length ?? 0;
    return text;
  });
  return count;
}
