import { comparableValue, type ScalarField } from '../../common/model-registry';
import { RestError } from '../errors';
import { formatId } from '../ids';
import { typedJsonNullsForCreate } from '../../common/typed-json-nulls';
import type { RestModel, RestRelationship } from '../schema';
import { idFieldValues, optionalMember, readDocument, readPrimaryData, readResourceId } from './document';
import { idValuesKey, linkageData, parseLinkage, whereKey, type RelationshipLinkage, type ResolvedIdentifier } from './identifiers';
import { hasOwn, isObject, payloadError, pointerTo } from './pointer';
import { linkageToPrisma, ownerLinkFromForeignKeys } from './relations';
import { convertAttribute, type ValueContext } from './values';

/**
 * How a request body is read: the compound id divider and, when known, the values of each enum
 * and the client's Json null objects.
 */
export interface PayloadOptions extends ValueContext {
    divider: string;
}

export type WriteMode = 'create' | 'update';

/** A resource create or update body, translated for Prisma. */
export interface ResourceWrite {
    /** The `data` argument of `create`/`update`: scalars plus nested connect/set/disconnect. */
    data: Record<string, unknown>;
    /** The converted scalar values as the client sent them (id fields included on create), for validation. */
    values: Record<string, unknown>;
    /** Body pointer of each value in `values`. */
    pointers: Record<string, string>;
    /** Foreign keys set through a relationship of the body (not through `values`). */
    relationFks: ReadonlySet<string>;
    /** Every resource identifier named in the body. */
    identifiers: ResolvedIdentifier[];
    /** For each relationship `data` changes: where the body says so (its linkage, or the foreign key attribute), for errors found while writing. */
    linkPointers: Record<string, string>;
}

interface GivenRelationship {
    rel: RestRelationship;
    linkage: RelationshipLinkage;
    pointer: string;
}

const ATTRIBUTES = '/data/attributes';
const RELATIONSHIPS = '/data/relationships';

/**
 * What an id field sent in `attributes` means (2.x clients send client-chosen ids, and upsert match
 * fields, there; `@zenstackhq/server` 2.x reads ids from nowhere else): on create it sets the id,
 * like `data.id`, and must agree with it; on update it must name the record of the URL (ids are
 * not changed through REST); in the update half of an upsert it is left out.
 */
type IdAttributes = { mode: 'create' } | { mode: 'update'; current?: Record<string, unknown> };

function readIdAttribute(
    field: ScalarField,
    value: unknown,
    pointer: string,
    given: IdAttributes,
    values: Record<string, unknown>,
    pointers: Record<string, string>,
    context: ValueContext,
): void {
    const converted = convertAttribute(field, value, pointer, context);
    const name = field.name;
    const other = given.mode === 'create' ? (hasOwn(values, name) ? values[name] : undefined) : given.current?.[name];
    if (other !== undefined && whereKey({ v: comparableValue(field, converted) }) !== whereKey({ v: comparableValue(field, other) })) {
        // a body contradicting itself is malformed (400); one naming another record than the URL, a conflict (409)
        if (given.mode === 'create') throw payloadError(pointer, `"${name}" conflicts with "data.id" given in the same body`);
        throw payloadError(pointer, `"${name}" does not match the id in the URL (ids are not changed through updates)`, 'id-conflict');
    }
    if (given.mode === 'create') {
        values[name] = converted;
        pointers[name] = pointer;
    }
}

/**
 * JSON:API 1.1 "@-Members" (`@context`, `@id` …, JSON-LD's): they may appear anywhere in a document, and one in an
 * attributes or relationships object is no attribute or relationship. No model field can have such a name.
 */
function isAtMember(name: string): boolean {
    return name.startsWith('@');
}

function readAttributes(
    model: RestModel,
    data: Record<string, unknown>,
    values: Record<string, unknown>,
    pointers: Record<string, string>,
    context: ValueContext,
    ids: IdAttributes,
): void {
    const attributes = optionalMember(data, 'attributes');
    if (attributes === undefined) return;
    if (!isObject(attributes)) {
        throw payloadError(ATTRIBUTES, '"attributes" must be an object');
    }
    for (const [name, value] of Object.entries(attributes)) {
        if (isAtMember(name)) continue;
        const pointer = pointerTo(ATTRIBUTES, name);
        // id fields first: the parts of a compound id are attributes too, but set or name the id
        const idField = model.idFields.find((f) => f.name === name);
        if (idField) {
            readIdAttribute(idField, value, pointer, ids, values, pointers, context);
            continue;
        }
        const field = model.attributes.get(name) ?? model.writeOnly.get(name);
        if (!field) {
            if (model.relationships.has(name)) {
                throw payloadError(pointer, `"${name}" is a relationship: send it in "data.relationships"`);
            }
            throw payloadError(pointer, `"${model.type}" has no attribute "${name}"`);
        }
        if (model.discriminators.has(name)) {
            throw payloadError(pointer, `"${name}" is the discriminator of a polymorphic (@@delegate) type: it is set by the type a resource is created as, never written`);
        }
        values[name] = convertAttribute(field, value, pointer, context);
        pointers[name] = pointer;
    }
}

function readRelationships(model: RestModel, data: Record<string, unknown>, divider: string): GivenRelationship[] {
    const relationships = optionalMember(data, 'relationships');
    if (relationships === undefined) return [];
    if (!isObject(relationships)) {
        throw payloadError(RELATIONSHIPS, '"relationships" must be an object');
    }
    const out: GivenRelationship[] = [];
    for (const [name, member] of Object.entries(relationships)) {
        if (isAtMember(name)) continue;
        const pointer = pointerTo(RELATIONSHIPS, name);
        const rel = model.relationships.get(name);
        if (!rel) {
            if (model.def.scalars.has(name)) {
                throw payloadError(pointer, `"${name}" is an attribute: send it in "data.attributes"`);
            }
            throw payloadError(pointer, `"${model.type}" has no relationship "${name}"`);
        }
        const linkage = parseLinkage(rel, linkageData(member, pointer, `relationship "${name}"`), pointerTo(pointer, 'data'), divider);
        out.push({ rel, linkage, pointer: pointerTo(pointer, 'data') });
    }
    return out;
}

/** The value a resolved identifier gives to a referenced field of its target (undefined when it does not say). */
function referencedValue(linkage: ResolvedIdentifier, field: string): unknown {
    const where = linkage.where;
    if (hasOwn(where, field)) return where[field];
    const [only] = Object.values(where);
    return isObject(only) && hasOwn(only, field) ? only[field] : undefined;
}

/**
 * A foreign key sent as an attribute next to its relationship must agree with it; it is then
 * dropped (the relationship's connect sets it). Returns the foreign keys the relationships set.
 */
function reconcileForeignKeys(given: GivenRelationship[], values: Record<string, unknown>, pointers: Record<string, string>): Set<string> {
    const fks = new Set<string>();
    for (const { rel, linkage } of given) {
        const mapping = rel.field.isOwner ? rel.field.foreignKeyMapping : undefined;
        if (!mapping || Array.isArray(linkage)) continue;
        for (const [ref, fk] of Object.entries(mapping)) {
            fks.add(fk);
            if (!hasOwn(values, fk)) continue;
            const implied = linkage === null ? null : referencedValue(linkage, ref);
            if (implied === undefined) {
                // the identifier names the target by other fields (externalIdMapping): nothing to compare with
                throw payloadError(pointers[fk], `"${fk}" cannot be sent together with relationship "${rel.name}": send one of them`);
            }
            if (whereKey({ v: values[fk] }) !== whereKey({ v: implied })) {
                throw payloadError(pointers[fk], `"${fk}" conflicts with relationship "${rel.name}" given in the same body`);
            }
            delete values[fk];
            delete pointers[fk];
        }
    }
    return fks;
}

/** Whether a foreign key mapping (referenced field → foreign key) references exactly the target's resource id fields. */
function namesResourceId(target: RestModel, mapping: Record<string, string>): boolean {
    const refs = Object.keys(mapping);
    return refs.length === target.idFields.length && target.idFields.every((f) => refs.includes(f.name));
}

/**
 * Translates a JSON:API create or update document into Prisma `data`. Every problem is a 400 (or
 * 409 for a type or id conflict) with a pointer into the body; nothing here touches the database.
 * `urlWhere` is the record an update targets (its `data.id`, if sent, must name the same record).
 */
export function parseResourceWrite(
    model: RestModel,
    body: unknown,
    mode: WriteMode,
    options: PayloadOptions,
    urlWhere?: Record<string, unknown>,
): ResourceWrite {
    const { divider } = options;
    const doc = readDocument(body, options.jsonNull);
    const data = readPrimaryData(doc, model);
    const values: Record<string, unknown> = {};
    const pointers: Record<string, string> = {};

    const idWhere = readResourceId(data, model, divider);
    if (idWhere && mode === 'update' && urlWhere && idValuesKey(model, idFieldValues(model, idWhere)) !== idValuesKey(model, idFieldValues(model, urlWhere))) {
        throw payloadError('/data/id', 'the resource id does not match the id in the URL', 'id-conflict');
    }
    if (idWhere && mode === 'create') {
        for (const [name, value] of Object.entries(idFieldValues(model, idWhere))) {
            values[name] = value;
            pointers[name] = '/data/id';
        }
    }
    const current = urlWhere ? idFieldValues(model, urlWhere) : undefined;
    readAttributes(model, data, values, pointers, options, mode === 'create' ? { mode } : { mode, current });
    if (mode === 'create') refuseUnaddressableId(model, values, pointers, divider);
    const given = readRelationships(model, data, divider);
    const relationFks = reconcileForeignKeys(given, values, pointers);

    // scalars go to Prisma as they are, except foreign keys: those become a connect/disconnect of
    // their relation (policy-checked like any relationship change)
    const prismaData: Record<string, unknown> = { ...values };
    const linkPointers: Record<string, string> = {};
    const givenNames = new Set(given.map((g) => g.rel.name));
    const identifiers: ResolvedIdentifier[] = [];
    for (const rel of model.relationships.values()) {
        if (givenNames.has(rel.name)) continue;
        const link = ownerLinkFromForeignKeys(rel, values, mode);
        if (link) {
            for (const fk of link.foreignKeys) delete prismaData[fk];
            prismaData[rel.name] = link.operation;
            linkPointers[rel.name] = pointers[link.foreignKeys[0]];
            // named by its resource id: a denied link to a record the user cannot read is then a 404 like a
            // missing one (operations/write/guard.ts), as when the body names it as a relationship
            const connect = (link.operation as { connect?: Record<string, unknown> }).connect;
            if (connect && namesResourceId(rel.target, rel.field.foreignKeyMapping ?? {})) {
                identifiers.push({ target: rel.target, where: connect, pointer: linkPointers[rel.name] });
            }
        }
    }
    for (const { rel, linkage, pointer } of given) {
        const operation = linkageToPrisma(rel, linkage, mode, pointer);
        if (operation) {
            prismaData[rel.name] = operation;
            linkPointers[rel.name] = pointer;
        }
        if (Array.isArray(linkage)) identifiers.push(...linkage);
        else if (linkage) identifiers.push(linkage);
    }
    if (mode === 'create') typedJsonNullsForCreate(model.def, prismaData);
    if (mode === 'create' && model.def.delegated) refuseGeneratedIdWithLinks(model, prismaData, pointers);
    return { data: prismaData, values, pointers, relationFks, identifiers, linkPointers };
}

/** Path segments that URL parsers resolve away (`/post/.` is `/post/`, `/post/..` is `/`) or leave empty. */
const UNADDRESSABLE_IDS: ReadonlySet<string> = new Set(['', '.', '..']);

/**
 * A client-chosen resource id that no URL can name: its `Location` and links would point at the collection
 * or elsewhere (WHATWG URL parsing also treats `%2E` as a dot), so it is refused before anything is written.
 */
function refuseUnaddressableId(model: RestModel, values: Record<string, unknown>, pointers: Record<string, string>, divider: string): void {
    if (!model.idFields.every((f) => typeof values[f.name] === 'string')) return;
    const id = String(formatId(model, values, divider));
    if (UNADDRESSABLE_IDS.has(id)) {
        const field = model.idFields[0].name;
        throw new RestError('invalid-id', `a ${model.type} id cannot be ${JSON.stringify(id)}: no URL can name the resource`, {
            source: { pointer: pointers[field] ?? '/data/id' },
        });
    }
}

/**
 * Prisma takes a value for an autoincrement field (an id, usually) only in its "unchecked" create
 * input, which has no to-one relation fields. Such a create's links are written as foreign keys
 * (operations/write/one-to-one.ts), except on a `@@delegate` model, where ZenStack turns keys back into
 * `connect`s: there the two cannot go together, said with a pointer instead of Prisma's "Unknown argument `id`".
 */
function refuseGeneratedIdWithLinks(model: RestModel, data: Record<string, unknown>, pointers: Record<string, string>): void {
    for (const id of model.def.autoIncrementScalars) {
        if (data[id.name] === undefined) continue;
        for (const link of model.relationships.values()) {
            if (link.isArray || !link.field.isOwner || data[link.name] === undefined) continue;
            throw payloadError(
                pointers[id.name] ?? '/data/id',
                `"${id.name}" is generated by the database (autoincrement) and cannot be given when the new ${model.type} is linked to "${link.name}": leave it out`,
            );
        }
    }
}

/** A relationship endpoint body (`{ data: identifier | null | identifiers }`) → the nested write on the owner. */
export function parseRelationshipWrite(
    rel: RestRelationship,
    body: unknown,
    operation: 'update' | 'add' | 'remove',
    divider: string,
): { data: Record<string, unknown>; identifiers: ResolvedIdentifier[]; linkPointers: Record<string, string> } {
    const doc = readDocument(body);
    const linkage = parseLinkage(rel, doc.data, '/data', divider);
    const nested = linkageToPrisma(rel, linkage, operation, '/data');
    const identifiers = Array.isArray(linkage) ? linkage : linkage ? [linkage] : [];
    return { data: nested ? { [rel.name]: nested } : {}, identifiers, linkPointers: { [rel.name]: '/data' } };
}
