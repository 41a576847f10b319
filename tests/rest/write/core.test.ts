import { describePg } from '../../support/postgres';
import { defineCoreWriteTests } from './core';

describe('REST writes, core [sqlite]', () => defineCoreWriteTests('sqlite'));
describePg('REST writes, core', () => defineCoreWriteTests('postgresql'));
