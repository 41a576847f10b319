// End-to-end tests of the example apps: `npm run test:e2e` (builds each app and runs it in production mode).
module.exports = {
    rootDir: '..',
    preset: 'ts-jest',
    testEnvironment: 'node',
    roots: ['<rootDir>/examples'],
    testMatch: ['**/*.e2e.test.ts'],
    modulePathIgnorePatterns: ['<rootDir>/examples/.*/\\.next/', '<rootDir>/examples/.*/\\.svelte-kit/'],
    transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
    testTimeout: 600000,
    maxWorkers: 1,
};
