import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// Debian's chromium, which the test run's `infra/local/services.sh up` installs when missing; playwright-core
// drives it directly (no chromedriver). Headless, no sandbox (CI runs as root), no network chatter.
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The browser the console's end-to-end specs drive. */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no Chromium at ${CHROMIUM}: \`npm run services:up\` (which the test run calls) installs it, or \`sudo apt-get install -y chromium\``,
    );
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
