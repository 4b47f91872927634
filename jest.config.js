/**
 * Tests are TypeScript, transformed by SWC (type checking is `npm run typecheck`). Tests that need a database
 * server run when its URL is set; the global setup requires every server under CI, and the global teardown
 * prints which tests a run left out and the variable that runs them (test/support/left-out.ts).
 */
const os = require('node:os');

module.exports = {
  testEnvironment: 'node',
  // Much of a run waits on child processes and databases (npm start, serverless-offline, PGlite start-ups), so a
  // 2-core machine runs two test files at once rather than jest's default of one
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testTimeout: 60000,
  globalSetup: '<rootDir>/test/support/left-out-setup.ts',
  globalTeardown: '<rootDir>/test/support/left-out-summary.ts',
  setupFilesAfterEnv: ['<rootDir>/test/support/note-left-out.ts'],
};
