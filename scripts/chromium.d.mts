/** CHROMIUM_PATH when set, else the first system Chromium or Chrome found, else null. */
export function chromiumPath(env?: NodeJS.ProcessEnv): string | null;
