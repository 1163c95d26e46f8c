// One GM event asks the rules the same question several times of the same state: the kernel's refusal check,
// XState's `can`, then the machine's guard and action. States and events are replaced, never changed in place, so
// the answer for the last arguments (compared by identity) can be given again. It holds those arguments until the
// next call with others.

/** `compute`, answering again without computing when called with the very same arguments as the last time. */
export function lastAnswer<A extends readonly unknown[], R>(compute: (...args: A) => R): (...args: A) => R {
  let lastArgs: A | null = null;
  let last: R;
  return (...args: A): R => {
    if (lastArgs !== null && lastArgs.length === args.length && lastArgs.every((arg, i) => arg === args[i])) return last;
    last = compute(...args);
    lastArgs = args;
    return last;
  };
}
