// Values built the first time they are asked for, then kept: what a start does not need (the request and event
// schemas, hundreds of zod objects with their methods bound) is not built while the app loads
// (docs/performance.md "Start").

/** The value `build` returns, built at the first call and the same value at every later one. */
export function once<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}

/** A table with every key from the start, each entry built the first time it is read and then kept. */
export function builtOnFirstRead<B extends Record<string, () => unknown>>(builders: B): { readonly [K in keyof B]: ReturnType<B[K]> } {
  const table = {} as { [K in keyof B]: ReturnType<B[K]> };
  for (const key of Object.keys(builders) as (keyof B & string)[]) {
    const entry = once(builders[key]!);
    Object.defineProperty(table, key, { enumerable: true, get: entry });
  }
  return table;
}
