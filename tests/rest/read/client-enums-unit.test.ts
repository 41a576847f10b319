import { clientEnumValues, enumsInPrismaSchema } from '../../../src/api/common/client-enums';

/** Enum values read from the Prisma schema text a client keeps, for requests without zod schemas. */

describe('enumsInPrismaSchema', () => {
    it('lists each value by name, past attributes, block attributes, comments and blank lines', () => {
        const text = [
            'generator client {',
            '  provider = "prisma-client-js"',
            '}',
            '/// who may do what',
            'enum Role {',
            '  USER',
            '  ADMIN   @map("admin") // the mapped name is not what the client takes',
            '',
            '  // GUEST',
            '  OWNER',
            '  @@map("roles")',
            '}',
            'enum Size{',
            '  S',
            '  M',
            '}',
            'model Thing {',
            '  id Int @id',
            '  role Role',
            '}',
        ].join('\n');
        expect(Object.fromEntries(enumsInPrismaSchema(text))).toEqual({ Role: ['USER', 'ADMIN', 'OWNER'], Size: ['S', 'M'] });
    });

    it('leaves out an enum with a line it cannot read (unknown, so unchecked, rather than wrong)', () => {
        const text = ['enum Odd {', '  A', '  B, C', '}', 'enum Fine {', '  X', '}'].join('\n');
        expect(Object.fromEntries(enumsInPrismaSchema(text))).toEqual({ Fine: ['X'] });
    });
});

describe('clientEnumValues', () => {
    it('is undefined for a client without schema text and for an enum the schema does not declare', () => {
        expect(clientEnumValues({}, 'Role')).toBeUndefined();
        expect(clientEnumValues(null, 'Role')).toBeUndefined();
        const throwing = new Proxy({}, { get: () => { throw new Error('no'); } });
        expect(clientEnumValues(throwing, 'Role')).toBeUndefined();
        const client = { _engineConfig: { inlineSchema: 'enum Role {\n  USER\n}\n' } };
        expect(clientEnumValues(client, 'Role')).toEqual(['USER']);
        expect(clientEnumValues(client, 'Size')).toBeUndefined();
    });
});
