import { jsonKey } from '../../common/guards';
import { comparableValue } from '../../common/model-registry';
import { whereById } from '../ids';
import { namesType, type RestModel, type RestRelationship } from '../schema';
import { idFieldValues } from './document';
import { hasOwn, isObject, payloadError, pointerTo } from './pointer';

/** A resource identifier of a request, resolved to the unique `where` of the record it names. */
export interface ResolvedIdentifier {
    target: RestModel;
    where: Record<string, unknown>;
    /** Where it was in the body, for errors found later (e.g. the record does not exist). */
    pointer: string;
}

/** What a relationship member of a request says: a to-one identifier or null, or a to-many list. */
export type RelationshipLinkage = ResolvedIdentifier | null | ResolvedIdentifier[];

/**
 * The id field values of a record (of a `where` built by `whereById`: through `idFieldValues`) as one key, compared
 * as the database compares them (`comparableValue`): two keys are equal when they name the same record.
 */
export function idValuesKey(model: RestModel, values: Record<string, unknown>): string {
    return whereKey({ id: model.idFields.map((f) => comparableValue(f, values[f.name])) });
}

/** A stable key of a unique `where`, to find duplicates and compare ids. */
export function whereKey(where: Record<string, unknown>): string {
    return jsonKey(where);
}

/** Parses `{ type, id }` naming a record of `target`; 400 with a pointer when malformed. */
export function parseIdentifier(target: RestModel, value: unknown, pointer: string, divider: string): ResolvedIdentifier {
    if (!isObject(value)) {
        throw payloadError(pointer, `expected a resource identifier { "type": "${target.type}", "id": … }`);
    }
    // a missing member is pointed at through the identifier holding it (JSON:API: a pointer names a value the document has)
    if (!hasOwn(value, 'type') || typeof value.type !== 'string') {
        throw payloadError(hasOwn(value, 'type') ? pointerTo(pointer, 'type') : pointer, 'a resource identifier needs a string "type"');
    }
    const type = value.type;
    const concrete = namesType(target, type) ? undefined : target.descendants.find((d) => namesType(d, type));
    if (!namesType(target, type) && !concrete) {
        throw payloadError(pointerTo(pointer, 'type'), `expected a resource identifier of type "${target.type}", got "${value.type}"`);
    }
    if (!hasOwn(value, 'id') || (typeof value.id !== 'string' && typeof value.id !== 'number')) {
        throw payloadError(hasOwn(value, 'id') ? pointerTo(pointer, 'id') : pointer, 'a resource identifier needs an "id" (string or number)');
    }
    const where = whereById(target, value.id, divider, pointerTo(pointer, 'id'));
    return { target, where: concrete ? ofConcreteType(target, concrete, where) : where, pointer };
}

/**
 * A relationship to a `@@delegate` base model also takes identifiers of the models extending it (`video` for
 * an `asset`, as 2.x does): the record must then be of that kind, which the base's discriminator tells for
 * the model right under the base on the way to it (`assetType: 'Video'`; below that, it is not checked).
 * A record of another kind is not found, as a missing one.
 */
function ofConcreteType(base: RestModel, concrete: RestModel, where: Record<string, unknown>): Record<string, unknown> {
    const discriminator = base.def.discriminator;
    if (!discriminator) return where;
    let child: RestModel | undefined = concrete;
    while (child && !child.def.baseTypes.includes(base.def.name)) {
        const parentName: string | undefined = child.def.baseTypes[0];
        child = base.descendants.find((d) => d.def.name === parentName);
    }
    return child ? { ...where, [discriminator]: child.def.name } : where;
}

/**
 * Most resource identifiers in one to-many relationship of a request. ZenStack and Prisma check and link them one by
 * one, in one transaction: 30,000 (1 MiB holds 35,000) kept the server busy for 12 s, and on SQLite every other
 * request waiting.
 */
export const MAX_LINKAGE = 1000;

/**
 * Parses the `data` of a relationship: an identifier or `null` for a to-one relationship, an
 * array of at most `MAX_LINKAGE` identifiers for a to-many one (duplicates are dropped).
 */
export function parseLinkage(rel: RestRelationship, data: unknown, pointer: string, divider: string): RelationshipLinkage {
    const target = rel.target;
    if (!rel.isArray) {
        if (data === null) return null;
        if (Array.isArray(data)) {
            throw payloadError(pointer, `"${rel.name}" is a to-one relationship: expected a resource identifier or null, not an array`);
        }
        return parseIdentifier(target, data, pointer, divider);
    }
    if (!Array.isArray(data)) {
        throw payloadError(pointer, `"${rel.name}" is a to-many relationship: expected an array of resource identifiers`);
    }
    if (data.length > MAX_LINKAGE) {
        throw payloadError(pointer, `at most ${MAX_LINKAGE} resource identifiers per relationship in one request, got ${data.length}`);
    }
    const seen = new Map<string, number>();
    const out: ResolvedIdentifier[] = [];
    const kindOf = (id: ResolvedIdentifier) => (target.def.discriminator ? id.where[target.def.discriminator] : undefined);
    data.forEach((item, i) => {
        const id = parseIdentifier(target, item, pointerTo(pointer, i), divider);
        const key = idValuesKey(target, idFieldValues(target, id.where));
        const earlier = seen.get(key);
        if (earlier === undefined) {
            seen.set(key, out.length);
            out.push(id);
            return;
        }
        // the same record named twice: once is enough, as the more precise of the two (a `@@delegate` kind beside the
        // base type); two kinds it cannot both be are a contradiction, whichever comes first
        const [before, now] = [kindOf(out[earlier]), kindOf(id)];
        if (now === undefined || now === before) return;
        if (before !== undefined) {
            throw payloadError(pointerTo(pointer, i), `"${rel.name}" names one record as two kinds ("${String(before)}" and "${String(now)}")`);
        }
        out[earlier] = id;
    });
    return out;
}

/** Reads the `{ data: … }` object of a relationship (in a resource body or as a whole relationship body). */
export function linkageData(container: unknown, pointer: string, what: string): unknown {
    if (!isObject(container)) {
        throw payloadError(pointer, `${what} must be an object with a "data" member`);
    }
    if (!hasOwn(container, 'data')) {
        throw payloadError(pointer, `${what} needs a "data" member`);
    }
    return container.data;
}
