/** Tests are TypeScript, transformed by SWC (type checking is `npm run typecheck`). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testTimeout: 60000,
};
