import { defineConfig } from '@playwright/test';
import { chromiumPath } from './scripts/chromium.mjs';

// Drives Debian's Chromium (never a downloaded browser) against the real web-mode server the specs start.
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 90_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    colorScheme: 'dark',
    launchOptions: {
      executablePath: chromiumPath() ?? undefined,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    trace: 'retain-on-failure',
  },
});
