import { RestApiHandler } from '../../../src/api/rest';
import { RPCApiHandler } from '../../../src/api/rpc';
import type { LoggerConfig, Response } from '../../../src/types';
import type { TestSchema } from '../../support/schema';

/**
 * A schema with every kind of secret a request or a row can hold: a `@password` (hashed on write), an `@omit`
 * field, a field only its owner may read, and a model whose rows only their owner may read.
 */
export const SECRETS_SCHEMA = `
model Member {
  id       Int      @id
  email    String   @unique @email
  password String   @password @omit @length(8, 64)
  token    String?  @omit
  secret   String?  @allow('read', auth() == this)
  name     String   @length(1, 20)
  amount   Decimal?
  vaults   Vault[]
  @@auth
  @@allow('create,read', true)
  @@allow('update,delete', auth() == this)
}

model Vault {
  id      Int    @id
  code    String
  ownerId Int
  owner   Member @relation(fields: [ownerId], references: [id])
  @@allow('create', true)
  @@allow('read,update,delete', auth() == owner)
}
`;

/** A bcrypt hash as ZenStack stores a `@password`. */
export const BCRYPT_HASH = /\$2[aby]?\$\d\d\$/;

/** A logger keeping every line of every level, with its level. */
export function levelLogger(): LoggerConfig & { lines: { level: string; text: string }[] } {
    const lines: { level: string; text: string }[] = [];
    const at = (level: string) => (message: string, code?: string) => {
        lines.push({ level, text: code ? `${code}: ${message}` : message });
    };
    return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export type Call = (method: string, path: string, body?: unknown, q?: unknown) => Promise<Response>;

/** Both handlers for a user of the schema, logging to `logger`. */
export function callers(s: TestSchema, logger: LoggerConfig, user: Record<string, unknown> | undefined, zod = false): { rpc: Call; rest: Call } {
    const common = { prisma: s.enhance(user), modelMeta: s.modelMeta, zodSchemas: zod ? s.zodSchemas : undefined, logger };
    const rpcHandler = RPCApiHandler();
    const restHandler = RestApiHandler({ endpoint: 'http://localhost/api' });
    return {
        rpc: (method, path, body, q) => rpcHandler({ ...common, method, path, query: q === undefined ? {} : { q: JSON.stringify(q) }, requestBody: body }),
        rest: (method, path, body) => restHandler({ ...common, method, path, query: {}, requestBody: body }),
    };
}
