import type { ModelMeta, ZodSchemas } from '@zenstackhq/runtime';
import path from 'node:path';
import { normalizeOptions } from '../../../src/api/rest/options';
import { buildRestSchema, type RestModel, type RestSchema } from '../../../src/api/rest/schema';
import { generateSchema, type Provider } from '../../support/generate';
import { BLOG_SCHEMA } from '../../support/schema';

export const ENDPOINT = 'http://localhost/api';

/** `meta.serialization.values` tagging every complex AllTypes attribute of a `data` resource object. */
export const ALL_TYPES_TAGS = {
    'data.attributes.dateTime': ['Date'],
    'data.attributes.bigInt': ['bigint'],
    'data.attributes.decimal': [['custom', 'Decimal']],
    'data.attributes.bytes': [['custom', 'Bytes']],
};

/**
 * A library schema for what the blog lacks: compound ids (Tag: key + lang), a join model whose id
 * is made of foreign keys (BookTag), a compound foreign key, client-chosen Int ids (Book), a model
 * whose rows are created but never readable (Note), and a scalar list (PostgreSQL only).
 */
export const LIBRARY_SCHEMA = `
model Author {
  id    Int    @id @default(autoincrement())
  name  String
  books Book[]
  @@allow('all', true)
}

model Book {
  id       Int       @id
  title    String
  author   Author?   @relation(fields: [authorId], references: [id])
  authorId Int?
  tags     BookTag[]
  @@allow('all', true)
}

model Tag {
  key   String
  lang  String
  label String    @default("")
  books BookTag[]
  @@id([key, lang])
  @@allow('all', true)
}

model BookTag {
  book    Book   @relation(fields: [bookId], references: [id], onDelete: Cascade)
  bookId  Int
  tag     Tag    @relation(fields: [tagKey, tagLang], references: [key, lang], onDelete: Cascade)
  tagKey  String
  tagLang String
  weight  Int    @default(1)
  @@id([bookId, tagKey, tagLang])
  @@allow('all', true)
}

model Note {
  id   Int    @id @default(autoincrement())
  text String
  @@allow('create', true)
}
`;

export const LIST_SCHEMA = `
model Shelf {
  id    Int      @id @default(autoincrement())
  names String[]
  sizes Int[]
  @@allow('all', true)
}
`;

/** The metadata and zod schemas of a schema, generated (cached) without creating a database. */
export function generatedMeta(zmodel: string = BLOG_SCHEMA, provider: Provider = 'sqlite'): { modelMeta: ModelMeta; zodSchemas: ZodSchemas } {
    const gen = generateSchema(zmodel, provider);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const modelMeta = require(path.join(gen.dir, 'zenstack', 'model-meta.js')).default as ModelMeta;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const zodSchemas = require(path.join(gen.dir, 'zenstack', 'zod', 'index.js')) as ZodSchemas;
    return { modelMeta, zodSchemas };
}

/** The REST view of a schema, as the handler builds it. */
export function restSchemaOf(modelMeta: ModelMeta): RestSchema {
    return buildRestSchema(modelMeta, normalizeOptions({ endpoint: ENDPOINT }));
}

export function modelOf(schema: RestSchema, type: string): RestModel {
    const model = schema.byTypeName.get(type);
    if (!model) throw new Error(`no type ${type}`);
    return model;
}

/** What a thrown RestError says, for table-driven expectations. */
export interface Thrown {
    code?: string;
    pointer?: string;
    detail?: string;
}

export function thrown(fn: () => unknown): Thrown {
    try {
        fn();
    } catch (err) {
        const e = err as { code?: string; detail?: string; extra?: { source?: { pointer?: string } } };
        return { code: e.code, pointer: e.extra?.source?.pointer, detail: e.detail };
    }
    throw new Error('expected an error, none was thrown');
}
