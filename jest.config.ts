import type { Config } from 'jest';

const config: Config = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  // generous: a hook that generates a schema (zenstack + prisma) can take tens of seconds on a loaded 2-core machine
  testTimeout: 120000,
  globalSetup: '<rootDir>/tests/support/global-setup.ts',
  globalTeardown: '<rootDir>/tests/support/global-teardown.ts',
  // one worker per core: jest's default keeps one core for its own process, which sits idle here
  // while the workers wait on the generator, SQLite and PostgreSQL (2 cores, clean cache, wall time: 460 s with one
  // worker, 311 s with two, 351 s with three; with the generator daemons 307 s with two and 277 s with three, kept
  // at two so that tests whose database waits have deadlines do not share a core three ways)
  maxWorkers: '100%',
};

export default config;
