// The Electron fuses the packaged app ships with (electron-builder.yml `electronFuses`), read through
// electron-builder's own config loader and checked against its own schema, so a misspelt key fails here and not
// silently at packaging time.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const projectDir = fileURLToPath(new URL('..', import.meta.url));

interface BuilderConfig {
  electronFuses?: Record<string, unknown> | null;
  asar?: unknown;
}
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: string, fromOptions: null): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const loadConfig = () => getConfig(projectDir, `${projectDir}electron-builder.yml`, null);

describe('Electron fuses', () => {
  it('packages with every fuse the app does not need switched off, and the asar checks on', async () => {
    const config = await loadConfig();
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    // Integrity validation and asar-only loading mean something only when the app is packed into an archive.
    expect(config.asar).toBe(true);
  });

  it('is a configuration electron-builder 26 accepts, and a misspelt fuse is not', async () => {
    const config = await loadConfig();
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    const misspelt = { ...config, electronFuses: { ...config.electronFuses, runAsNod: false } };
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(/electronFuses/);
  });
});
