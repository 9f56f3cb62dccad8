/**
 * `npm test`: every suite, in order — unit and component (contracts, web),
 * API integration on a real PostgreSQL, then the browser journeys. Stops at
 * the first failing suite and exits non-zero.
 */
import { run } from './lib.ts';

const suites: Array<[string, string, string[]]> = [
  ['unit, component and API integration (Vitest)', 'npx', ['vitest', 'run']],
  ['browser journeys (Playwright + Chromium)', 'npm', ['run', 'test:e2e']],
];

let passed = 0;
for (const [name, command, args] of suites) {
  console.log(`\n=== ${name} ===`);
  const code = await run(command, args);
  if (code !== 0) {
    console.error(`\n${name}: FAILED (exit ${code})`);
    console.log(`${passed} passed, 1 failed`);
    process.exit(code);
  }
  passed += 1;
}
console.log(`\nsuites: ${passed} passed, 0 failed`);
