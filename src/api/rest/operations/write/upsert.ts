import type { Response } from '../../../../types';
import { parseResourceWrite, payloadError, pointerTo, uniqueWhereOf, validateWrite, type ResourceWrite } from '../../payload';
import { hasOwn, isObject } from '../../payload/pointer';
import { projectionFor, type Projection } from '../../query/select';
import type { RestRequest } from '../../request';
import type { RestModel } from '../../schema';
import { renderResourceDocument } from '../read';
import type { CrudContract } from '@zenstackhq/runtime';
import { transactionKeepingWrites } from '../../../common/transactions';
import { mayRerun, rerunning } from '../../../common/rerun';
import { delegateOf, guardedWrite, othersThanCreated } from './guard';
import { refuseBaseLinks, upsertThroughConcrete } from './delegate-writes';
import { applyRelationChanges, resolveRelationChanges, withMembersRetry, writeOptions } from './replace';
import { ownerLinksAsForeignKeys, withLinkConflicts, writesOwnedLinksAsKeys, type LinkPointers } from './one-to-one';
import { payloadOptions, prepare, selfLink } from './prepare';
import { checkLinks } from './self-many-to-many';
import { matchingNothing } from '../../../rpc/write-walk';

/**
 * POST /:type with `meta: { operation: "upsert", matchFields: [...] }` (as `@zenstackhq/server` 2.x):
 * updates the record whose `matchFields` equal the body's values, or creates it. The match fields
 * must include every field of one unique constraint and each needs a value in the body (an
 * attribute, or `data.id` for id fields). The create gets the whole body; the update gets it
 * without the match fields, with to-many relationships replaced (as PATCH does, never through Prisma's
 * unchecked `set`). One ORM `upsert` (in a transaction with the read of the current members when
 * relationships are replaced), so the policy decides create or update rules as for any upsert; one-to-one
 * links are made as one-to-one.ts has it (owned ones as foreign keys, displaced partners detached under the policy).
 * Answered 201, as 2.x does, whichever happened.
 */

const META = '/meta';

/** The match fields of an upsert request, or `undefined` for a plain create (no `meta.operation`). */
export function readUpsertMeta(body: unknown): string[] | undefined {
    if (!isObject(body) || !isObject(body.meta) || !hasOwn(body.meta, 'operation')) {
        return undefined;
    }
    const { operation } = body.meta;
    if (operation !== 'upsert') {
        throw payloadError(pointerTo(META, 'operation'), '"meta.operation" can only be "upsert" (leave it out to create)');
    }
    const fields = hasOwn(body.meta, 'matchFields') ? body.meta.matchFields : undefined;
    if (!Array.isArray(fields) || fields.length === 0 || !fields.every((f) => typeof f === 'string')) {
        throw payloadError(pointerTo(META, 'matchFields'), '"meta.matchFields" must be a non-empty array of field names');
    }
    return [...new Set(fields as string[])];
}

/** The `where` of the upsert: a unique constraint covered by the match fields, plus the other match fields. */
function matchWhere(model: RestModel, matchFields: string[], write: ResourceWrite): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    matchFields.forEach((name, i) => {
        const field = model.def.scalars.get(name);
        if (!field || field.omitted) {
            throw payloadError(pointerTo(META, 'matchFields', i), `"${model.type}" has no field "${name}" to match on`);
        }
        const value = write.values[name];
        if (value === undefined || value === null) {
            throw payloadError('/data', `match field "${name}" needs a value in the body (in "data.attributes", or "data.id" for an id field)`);
        }
        values[name] = value;
    });
    // prefer a constraint of readable fields: a protected one (a unique email only its owner reads) may name the record only when no other does
    const covered = Object.values(model.def.uniqueConstraints).filter((c) => c.fields.every((f) => hasOwn(values, f)));
    const constraint = covered.find((c) => !c.fields.some((f) => model.def.scalars.get(f)?.readProtected)) ?? covered[0];
    if (!constraint) {
        const known = Object.values(model.def.uniqueConstraints)
            .map((c) => `[${c.fields.join(', ')}]`)
            .join(', ');
        throw payloadError(pointerTo(META, 'matchFields'), `the match fields must include all fields of a unique constraint of "${model.type}" (${known})`);
    }
    const unique: Record<string, unknown> = {};
    for (const f of constraint.fields) unique[f] = values[f];
    const where = uniqueWhereOf(model, unique) as Record<string, unknown>;
    matchFields.forEach((name, i) => {
        if (constraint.fields.includes(name)) return;
        // ZenStack does not guard an upsert's filter: whether it updates or creates would tell a guess right or wrong
        if (model.def.scalars.get(name)?.readProtected) {
            throw payloadError(pointerTo(META, 'matchFields', i), `"${name}" cannot be a match field of "${model.type}" beyond a unique constraint: reading it is restricted by the access policy`);
        }
        where[name] = values[name];
    });
    return where;
}

/**
 * The update half of an upsert leaves out the match fields: they hold the values the record was found by. A foreign
 * key sent as an attribute became a link of its relation (resource.ts), which is left out too when the match fields
 * hold every key of it (the update would write them again, under their update rules).
 */
function withoutMatchFields(model: RestModel, update: ResourceWrite, matchFields: readonly string[]): ResourceWrite {
    for (const name of matchFields) {
        delete update.data[name];
        delete update.values[name];
    }
    for (const rel of model.relationships.values()) {
        const keys = Object.values(rel.field.isOwner ? (rel.field.foreignKeyMapping ?? {}) : {});
        if (keys.length > 0 && keys.every((k) => matchFields.includes(k))) {
            delete update.data[rel.name];
            delete update.linkPointers[rel.name];
        }
    }
    return update;
}

/**
 * Relationships written by an upsert whose record is named by a field the user may not read (a unique `email` only its
 * owner reads): the record cannot be looked up under the policy to resolve them (PATCH's replacement, one-to-one
 * links), nor told apart from a hidden one. A 400, where without relationships the upsert goes to the ORM as it is.
 */
function refuseProtectedKeyWithRelationships(model: RestModel, where: Record<string, unknown>, update: Record<string, unknown>): void {
    if (!Object.keys(update).some((k) => model.relationships.has(k))) return;
    const named = Object.entries(where).flatMap(([key, value]) => (model.def.scalars.has(key) ? [key] : isObject(value) ? Object.keys(value) : []));
    const hidden = named.find((f) => model.def.scalars.get(f)?.readProtected);
    if (hidden) {
        throw payloadError(
            pointerTo(META, 'matchFields'),
            `relationships cannot be written by an upsert whose record is named by "${hidden}", which the access policy restricts reading: match on fields the user may read, or change the relationships apart`,
        );
    }
}

export async function upsertResource(req: RestRequest, matchFields: string[]): Promise<Response> {
    const model = req.route.model;
    const created = prepare(req, model, 'upsert');
    if (created.invalid) return created.invalid;
    const where = matchWhere(model, matchFields, created.write);

    const update = withoutMatchFields(model, parseResourceWrite(model, req.body, 'update', payloadOptions(req)), matchFields);
    const invalidUpdate = validateWrite(req.zodSchemas, model, 'update', update);
    if (invalidUpdate) return invalidUpdate;
    refuseProtectedKeyWithRelationships(model, where, update.data);

    const projection = projectionFor(model, created.query.include, created.query.fields, req.config);
    const pointers = { ...update.linkPointers, ...created.write.linkPointers };
    refuseBaseLinks(req, model, { ...created.write.data, ...update.data }, pointers);
    const upsertOnce = (target: RestModel, where: Record<string, unknown>): Promise<Record<string, unknown>> =>
        Object.keys(update.data).some((k) => target.relationships.has(k)) || writesOwnedLinksAsKeys(target, created.write.data)
            ? withLinkConflicts(target, { ...update.data, ...created.write.data }, pointers, () =>
                  upsertWithRelationships(req, target, where, created.write.data, update.data, projection, pointers),
              )
            : (delegateOf(req, target).upsert({ where, create: created.write.data, update: update.data, ...projection }) as Promise<Record<string, unknown>>);
    // an upsert that lost a race with another of the same key (a unique violation) runs again (rerun.ts), as does one
    // that lost to a deadlock
    const upsert = (target: RestModel, where: Record<string, unknown>) =>
        mayRerun(req.prisma) ? rerunning(() => upsertOnce(target, where), { findsOrCreates: true }) : upsertOnce(target, where);
    // on a @@delegate base type whose concrete types have update rules of their own: through the record's concrete type
    const createOnly = () => delegateOf(req, model).create({ data: created.write.data, ...projection }) as Promise<Record<string, unknown>>;
    const record = await guardedWrite(req, { model, identifiers: othersThanCreated(model, created.write.data, created.write.identifiers) }, () => upsertThroughConcrete(req, model, where, upsert, createOnly));
    const res = await renderResourceDocument(req, model, record, created.query, 201);
    return { ...res, headers: { ...res.headers, Location: selfLink(res, model, record, req.config.idDivider) } };
}

type Data = Record<string, unknown>;

/**
 * An upsert whose update replaces relationships: Prisma's `set` would detach members without their
 * update rule (see replace.ts), so the update is resolved as PATCH resolves it, in one transaction
 * with the write. When the record is not there for the user (absent, or not readable), the upsert runs
 * as the create it is for the user: ZenStack would find a hidden record without its read rule and run
 * the update branch, whose links nothing here could check (a one-to-one link detaches the record's
 * partner unchecked). A hidden record with that key then makes the create a unique violation (409),
 * and nothing is written, as PATCH answers 404 for it.
 */
async function upsertWithRelationships(req: RestRequest, model: RestModel, where: Data, create: Data, update: Data, projection: Projection, pointers: LinkPointers): Promise<Data> {
    const write = (oneByOne: boolean) =>
        transactionKeepingWrites(
            req.prisma,
            async (t) => {
                const tx = t as CrudContract;
                const resolved = await resolveRelationChanges(tx, model, where, update, pointers);
                const createData = await ownerLinksAsForeignKeys(tx, model, create, pointers, req.config.idDivider);
                if (!resolved) {
                    // ZenStack refuses an upsert before any lookup where the user may never update such a record (a rule
                    // false for them whatever the row); so does the create it runs as: an update of no row meets that refusal
                    await tx[model.key].updateMany({ where: matchingNothing(model.def), data: {} });
                    await checkLinks(req, tx, model, 'create', { data: createData });
                    return (await tx[model.key].create({ data: createData, ...projection })) as Data;
                }
                // one-to-one links as PATCH makes them; owned ones as foreign keys
                const updateData = await applyRelationChanges(req, tx, model, where, resolved, pointers, oneByOne);
                await checkLinks(req, tx, model, 'upsert', { where, create: createData, update: updateData });
                return (await tx[model.key].upsert({ where, create: createData, update: updateData, ...projection })) as Data;
            },
            writeOptions(req, model, update),
        );
    return withMembersRetry(write);
}
