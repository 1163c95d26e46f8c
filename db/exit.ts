// What the process lets go of when it ends normally (process.exit(), the end of its work, a signal handler that
// exits): one `exit` listener runs the hooks newest first, so what was taken last is let go first (an app marks its
// database closed before the database's lock is released). Each hook runs on its own: one that throws is reported
// and the others still run. A crash runs none of them, which is what the health marker and the lock's staleness
// check rely on.
const hooks: (() => void)[] = [];
let listening = false;

/** Runs `hook` when the process exits; returns the function that takes it back (once it has been let go early). */
export function atExit(hook: () => void): () => void {
  hooks.push(hook);
  if (!listening) {
    listening = true;
    process.on('exit', runHooks);
  }
  return () => {
    const index = hooks.lastIndexOf(hook);
    if (index >= 0) hooks.splice(index, 1);
  };
}

function runHooks(): void {
  for (const hook of hooks.splice(0).reverse()) {
    try {
      hook();
    } catch (error) {
      console.error('[gmw] letting go at exit failed:', error);
    }
  }
}
