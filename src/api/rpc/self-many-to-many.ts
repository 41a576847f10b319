import { BadRequestError, classifyError, RecordNotFoundError } from '../common/errors';
import { isObject, jsonKey } from '../common/guards';
import { idSelect, type ModelDef, type ModelRegistry } from '../common/model-registry';
import { isNotReadable } from '../common/transactions';
import { isPlainObject } from '../common/guards';
import type { Args } from './input';
import { asFilter, follow, selectAlong, uniqueWhere } from './relation-set';
import { delegateOf, many, walkWrites, type RelationWrite } from './write-walk';

/**
 * ZenStack 2.x checks the update rules of a many-to-many link only when its model metadata marks the sides
 * of the relation as owning it. It marks both sides of a many-to-many relation between two models, and
 * neither side of one from a model to itself (`following User[] @relation("follows")` with
 * `followers User[] @relation("follows")`): there, linking and unlinking records checked nothing, so any
 * user who could read two records, anonymous ones included, could link them or unlink them (also with 2.x).
 *
 * Both handlers check what ZenStack checks for a many-to-many relation between two models, in the write's
 * transaction and before the write: the update rule of the record whose relation changes (unless the write
 * updates its own fields too: ZenStack checks it then), and of every existing record it links (`connect`, a
 * `connectOrCreate` that finds its record) or unlinks (`disconnect` of a current member; a `set` is a
 * disconnect plus a connect once the handler has rewritten it). A record is checked by an update that writes
 * its id fields (and `@updatedAt` fields) back unchanged: ZenStack checks that update under the user's
 * policy, its post-update (`future()`) rules included, and answers a denial as for any other write (403).
 * A record the user cannot read cannot be checked so: a `connect` of it is a 404, as if it were missing.
 */

type Data = Record<string, unknown>;

const LINK_OPS = ['connect', 'connectOrCreate', 'create', 'createMany', 'upsert', 'disconnect', 'set', 'delete', 'deleteMany'];

function sites(registry: ModelRegistry, model: ModelDef, op: string, args: Args): RelationWrite[] {
    const found: RelationWrite[] = [];
    walkWrites(registry, model, op, args, (write) => {
        if (write.relation.unguardedManyToMany && LINK_OPS.some((k) => k in write.ops)) found.push(write);
    });
    return found;
}

/** Whether an operation's arguments link or unlink records through a many-to-many relation ZenStack does not guard. */
export function hasUnguardedLinks(registry: ModelRegistry, model: ModelDef, op: string, args: Args): boolean {
    return sites(registry, model, op, args).length > 0;
}

/** The fields a check writes back: the id fields, and the `@updatedAt` ones (which the ORM would otherwise set to now). */
function pinSelect(model: ModelDef): Record<string, true> {
    const select = idSelect(model);
    for (const field of model.updatedAtFields) select[field.name] = true;
    return select;
}

/** Checks a record under its update rule by writing back, unchanged, the fields `pinSelect` read. */
async function checkUpdatable(client: unknown, model: ModelDef, record: Data, checked: Set<string>): Promise<void> {
    const where = uniqueWhere(model, record);
    const key = jsonKey([model.key, where]);
    if (checked.has(key)) return;
    checked.add(key);
    const data: Data = {};
    for (const name of Object.keys(pinSelect(model))) {
        if (record[name] !== undefined) data[name] = record[name];
    }
    try {
        await delegateOf(client, model).update({ where, data, select: idSelect(model) });
    } catch (err) {
        // the update was allowed; the record is only unreadable afterwards
        if (!isNotReadable(err)) throw err;
    }
}

/** The id-like values a unique filter names its record by, as update data that writes them back unchanged. */
export function keyValues(model: ModelDef, where: Data): Data | undefined {
    for (const c of Object.values(model.uniqueConstraints)) {
        if (c.fields.length === 1) {
            const value = where[c.fields[0]];
            if (value !== undefined && value !== null && !isPlainObject(value)) return { [c.fields[0]]: value };
        } else if (isObject(where[c.name])) {
            return { ...(where[c.name] as Data) };
        }
    }
    return undefined;
}

/** Whether `where` names, by its key, the record a create makes at `site` (a record of the same model, linked to itself). */
export function namesCreatedRecord(site: RelationWrite, where: Data): boolean {
    if (site.place.path || site.target !== site.model) return false;
    const key = keyValues(site.target, where);
    return key !== undefined && jsonKey(Object.keys(key).map((name) => site.data[name] ?? null)) === jsonKey(Object.values(key));
}

/**
 * Checks the existing records a site links. One the user cannot read cannot be checked by reading it first:
 * a `connect` of it is refused as not found (as the handlers refuse other links they cannot check), unless
 * the write may not reach it (an upsert branch); a `connectOrCreate` that may find it checks it by writing its
 * key back (not there: it is created, under the create rule).
 */
async function checkLinked(client: unknown, site: RelationWrite, checked: Set<string>): Promise<void> {
    const { relation, target, ops, place } = site;
    const lookup = (where: Data) => delegateOf(client, target).findUnique({ where, select: pinSelect(target) });
    for (const where of many(ops.connect).filter(isObject)) {
        // the record being created, linked to itself: new, under its create rule, and not there yet to look up
        if (namesCreatedRecord(site, where)) continue;
        const found = await lookup(where);
        if (isObject(found)) await checkUpdatable(client, target, found, checked);
        else if (!place.conditional) throw new RecordNotFoundError(`No '${target.name}' record was found for a nested connect on relation "${relation.name}"`);
    }
    for (const item of many(ops.connectOrCreate)) {
        if (!isObject(item) || !isObject(item.where)) continue;
        const found = await lookup(item.where);
        if (isObject(found)) {
            await checkUpdatable(client, target, found, checked);
            continue;
        }
        const data = keyValues(target, item.where);
        if (!data) continue;
        try {
            await delegateOf(client, target).update({ where: item.where, data, select: idSelect(target) });
        } catch (err) {
            const kind = classifyError(err).kind;
            if (kind !== 'not-found' && kind !== 'not-readable') throw err;
        }
    }
}

/** Whether the data of the record holding the relation writes fields of its own (then ZenStack checks its update rule itself). */
function writesOwnFields(model: ModelDef, data: Data): boolean {
    return Object.keys(data).some((key) => model.scalars.has(key));
}

async function checkSite(client: unknown, registry: ModelRegistry, top: ModelDef, where: unknown, site: RelationWrite, checked: Set<string>): Promise<void> {
    const { model, relation, target, ops, place } = site;
    await checkLinked(client, site, checked);
    // under a create the record holding the relation is new: its create rule applies, and it has no members to unlink
    if (!place.path || !isObject(where)) return;
    const removed = many(ops.disconnect).filter(isObject);
    const members = removed.length > 0 ? { OR: removed.map((item) => asFilter(target, item)) } : { OR: [] };
    const select = selectAlong(registry, place.path, relation, target, members, pinSelect(model));
    const parent = follow(await delegateOf(client, top).findUnique({ where, select }), place.path);
    // not there for the user: the write itself answers that
    if (!parent) return;
    if (!writesOwnFields(model, site.data)) await checkUpdatable(client, model, parent, checked);
    for (const member of many(parent[relation.name]).filter(isObject)) {
        const found = await delegateOf(client, target).findUnique({ where: uniqueWhere(target, member), select: pinSelect(target) });
        if (isObject(found)) await checkUpdatable(client, target, found, checked);
    }
}

/**
 * The most records one write may link or unlink through such relations. Each costs a read and a checking update
 * (about four statements), where ZenStack's own link is one statement for all of them: a `connect` of 200
 * followers cost 812 statements (2.22.3: 7).
 */
export const MAX_UNGUARDED_LINKS = 100;

function refuseTooManyLinks(sites: readonly RelationWrite[]): void {
    let count = 0;
    for (const { ops } of sites) {
        for (const key of ['connect', 'connectOrCreate', 'disconnect']) count += many(ops[key]).filter(isObject).length;
    }
    if (count > MAX_UNGUARDED_LINKS) {
        const names = [...new Set(sites.map((s) => `"${s.relation.name}" of ${s.model.name}`))].join(', ');
        throw new BadRequestError(
            `invalid arguments: at most ${MAX_UNGUARDED_LINKS} records may be linked or unlinked through ${names} in one write ` +
                `(each is checked under its update rule); this one names ${count}: split it`,
        );
    }
}

/**
 * Checks the records that `args` (relation `set`s already rewritten) link or unlink through many-to-many
 * relations ZenStack does not guard. `client` is the transaction the write then runs in. An upsert is
 * checked for the branch that will run: its update when the record is there for the user, else its create.
 */
export async function checkUnguardedLinks(client: unknown, registry: ModelRegistry, model: ModelDef, op: string, args: Args): Promise<void> {
    const found = sites(registry, model, op, args);
    if (found.length === 0) return;
    if (op === 'upsert') {
        const exists = isObject(args.where) && isObject(await delegateOf(client, model).findUnique({ where: args.where, select: idSelect(model) }));
        return exists
            ? checkUnguardedLinks(client, registry, model, 'update', { where: args.where, data: args.update })
            : checkUnguardedLinks(client, registry, model, 'create', { data: args.create });
    }
    refuseTooManyLinks(found);
    const checked = new Set<string>();
    for (const site of found) await checkSite(client, registry, model, args.where, site, checked);
}
