import { BIGINT_TAGS, BYTES_TAGS, DATE_TAGS, DECIMAL_TAGS, NUMBER_TAGS, encodeBytes, isDecimal, isPlainNumber, serializeValue, taggedNumberText } from '../../common/codec';
import { isoString } from '../../common/iso-date';
import { indexedPaths } from '../../common/path-names';
import { formatId } from '../ids';
import type { Fieldsets, IncludeTree } from '../query/types';
import type { RestModel } from '../schema';
import { resourceLink } from './links';
import { keysHidden, planOf, type AttributePlan, type RelationshipPlan } from './model-plan';

/**
 * Turns Prisma records into JSON:API resource objects in one pass: attributes are encoded as they
 * are copied, their serialization tags recorded under their path in the final document
 * (`data.0.attributes.bytes`, `included.3.attributes.decimal`), relationship linkage is built, and
 * included records are queued, then rendered once each (deduplicated by type and id, never
 * repeating primary data) when the document is finished.
 */

export type ResourceId = string | number;

export interface ResourceIdentifier {
    type: string;
    id: ResourceId;
}

export type Linkage = ResourceIdentifier | ResourceIdentifier[] | null;

export interface RelationshipObject {
    /** `first` and `next` (JSON:API pagination links of the relationship data) when an included to-many has more members than it shows. */
    links: { self: string; related: string; first?: string; next?: string };
    data?: Linkage;
}

export interface ResourceObject {
    type: string;
    id: ResourceId;
    attributes: Record<string, unknown>;
    relationships: Record<string, RelationshipObject>;
    links: { self: string };
}

type DbRecord = Record<string, unknown>;

/** The list a rendered resource sits in: primary data (`data.<i>`, or `data` alone) or `included.<i>`. */
type Section = 'data.' | 'included.';

interface Pending {
    model: RestModel;
    record: DbRecord;
    tree: IncludeTree;
}

/**
 * Whether a to-one's linkage can come from its foreign keys: it has them, and the user may read them all. One the ORM
 * left out (a field-level read rule, `@omit`) says nothing about the link: `data: null` claimed there is none.
 */
function keysRead(r: RelationshipPlan, record: DbRecord): boolean {
    return r.fkFields !== undefined && !keysHidden(r, record);
}

/**
 * Whether an included relationship of `record` gets linkage: the ORM loaded it, or (a to-one) its foreign keys tell it.
 * A relation the ORM left out although it was asked for is one the user may not read (a field-level rule): no
 * linkage, rather than an empty one that would claim it has no members.
 */
function linkageKnown(r: RelationshipPlan, record: DbRecord): boolean {
    return record[r.name] !== undefined || (!r.isArray && keysRead(r, record));
}

/**
 * The linkage of a to-one the ORM answered null for, where its foreign keys do not give the linkage: null only where
 * there is no link. On the owner side a foreign key that is set names a target the user may not read, and one the user
 * may not read (or that was not read) tells nothing: no linkage then, rather than a null that claims there is no link.
 * The other side has only the ORM's word (a partner the user may not read is null there).
 */
function nullLinkage(r: RelationshipPlan, record: DbRecord): null | undefined {
    const keys = r.linkKeys?.local;
    if (!keys) return null;
    for (let i = 0; i < keys.length; i++) if (record[keys[i]] === null) return null;
    return undefined;
}

/** Encodes one non-null scalar value; returns the JSON value and its tag list (undefined for plain JSON). */
function encodeScalar(value: unknown): [unknown, readonly unknown[] | undefined] {
    // an invalid date (a stored text no parser reads) is a null with no tag, as superjson writes it (a tagged null is 1970)
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? [null, undefined] : [isoString(value), DATE_TAGS];
    if (typeof value === 'bigint') return [value.toString(), BIGINT_TAGS];
    if (value instanceof Uint8Array) return [encodeBytes(value), BYTES_TAGS];
    if (isDecimal(value)) return [value.toString(), DECIMAL_TAGS];
    if (typeof value === 'number' && !isPlainNumber(value)) return [taggedNumberText(value), NUMBER_TAGS];
    return [value, undefined];
}

export class DocumentBuilder {
    private values: Record<string, unknown> | undefined;
    private readonly included: ResourceObject[] = [];
    /** Rendered resources by type and id: each appears once in a document. */
    private readonly seen = new Map<RestModel, Map<ResourceId, ResourceObject>>();
    private readonly queue: Pending[] = [];

    /**
     * `pageSize`: the most members an included to-many relationship shows (its read asks for one more, which tells
     * that there are more: the relationship object then links to the next page of its data).
     */
    constructor(
        private readonly divider: string,
        private readonly fields?: Fieldsets,
        private readonly pageSize = Infinity,
    ) {}

    /** The identifier of a record of `model` (the record holds at least the id fields). */
    identifier(model: RestModel, record: DbRecord): ResourceIdentifier {
        return { type: model.type, id: formatId(model, record, this.divider) };
    }

    /**
     * Renders a primary resource: `data.<index>` of a collection, or `data` itself without an index.
     * Included records below it are queued.
     */
    resource(model: RestModel, record: DbRecord, index: number | undefined, tree?: IncludeTree): ResourceObject {
        const id = formatId(model, record, this.divider);
        const resource = this.render(model, record, id, 'data.', index, tree);
        this.seenOf(model).set(id, resource);
        return resource;
    }

    /** Queues the records of an included relationship fetched apart from a resource (related-resource reads). */
    enqueue(model: RestModel, record: DbRecord, tree: IncludeTree): void {
        this.queue.push({ model, record, tree });
    }

    /** Renders everything queued (breadth first) and returns `included` and the serialization tags. */
    finish(): { included: ResourceObject[]; values?: Record<string, unknown> } {
        for (let i = 0; i < this.queue.length; i++) {
            const { model, record, tree } = this.queue[i];
            const id = formatId(model, record, this.divider);
            const seen = this.seenOf(model);
            const existing = seen.get(id);
            if (!existing) {
                const resource = this.render(model, record, id, 'included.', this.included.length, tree);
                this.included.push(resource);
                seen.set(id, resource);
                continue;
            }
            // met again through another include path: link (and queue) what this path adds
            const plan = planOf(model);
            for (const [name, sub] of tree) {
                const r = plan.relationshipByName.get(name);
                if (!r) continue;
                const data = this.linkage(r, record, sub);
                const entry = existing.relationships[name];
                if (entry && entry.data === undefined && data !== undefined && linkageKnown(r, record)) this.setLinkage(entry, r, record, data);
            }
        }
        this.queue.length = 0;
        return { included: this.included, values: this.values };
    }

    private seenOf(model: RestModel): Map<ResourceId, ResourceObject> {
        let byId = this.seen.get(model);
        if (!byId) {
            byId = new Map();
            this.seen.set(model, byId);
        }
        return byId;
    }

    private tag(path: string, tags: readonly unknown[]): void {
        (this.values ??= {})[path] = tags;
    }

    /** The serialization path of an attribute (`data.3.attributes.createdAt`), from a table for listed resources. */
    private attributePath(section: Section, index: number | undefined, a: AttributePlan): string {
        return index === undefined ? `data${a.pathSuffix}` : indexedPaths.get(section, index, a.pathSuffix);
    }

    private render(model: RestModel, record: DbRecord, id: ResourceId, section: Section, index: number | undefined, tree: IncludeTree | undefined): ResourceObject {
        const plan = planOf(model);
        const set = this.fields?.get(model.type);
        const self = resourceLink(model, id);

        const attributes: Record<string, unknown> = {};
        for (const a of plan.attributes) {
            if (set && !set.has(a.name)) continue;
            const value = record[a.name];
            if (value === undefined) continue;
            if (value === null || (!a.complex && !a.deep && (typeof value !== 'number' || isPlainNumber(value)))) {
                attributes[a.name] = value;
            } else {
                attributes[a.name] = this.encodeAttribute(a, value, this.attributePath(section, index, a));
            }
        }
        if (!set) {
            // a delegate base model's record read without a fieldset holds its concrete model's fields too
            for (const a of plan.concreteAttributes) {
                const value = record[a.name];
                if (value !== undefined) attributes[a.name] = this.encodeAttribute(a, value, this.attributePath(section, index, a));
            }
        }

        const relationships: Record<string, RelationshipObject> = {};
        for (const r of plan.relationships) {
            const sub = tree?.get(r.name);
            if (set && !set.has(r.name)) {
                if (sub) this.linkage(r, record, sub);
                continue;
            }
            const entry: RelationshipObject = { links: { self: self + r.selfSuffix, related: self + r.relatedSuffix } };
            if (sub) {
                const data = this.linkage(r, record, sub);
                if (data !== undefined && linkageKnown(r, record)) this.setLinkage(entry, r, record, data);
            } else if (!r.isArray && (keysRead(r, record) || record[r.name] !== undefined)) {
                // a to-one without foreign keys here has linkage only when its id was loaded (primary data)
                const data = this.toOne(r, record);
                if (data !== undefined) entry.data = data;
            }
            relationships[r.name] = entry;
        }
        return { type: model.type, id, attributes, relationships, links: { self } };
    }

    /**
     * An attribute value that may need tags, at `path`: a typed JSON value is walked (its typed values
     * tagged under their own paths), a scalar list item by item, anything else as one scalar.
     */
    private encodeAttribute(a: AttributePlan, value: unknown, path: string): unknown {
        if (a.deep) {
            const { json, values } = serializeValue(value, path);
            if (values) Object.assign((this.values ??= {}), values);
            return json;
        }
        return Array.isArray(value) ? value.map((item, i) => this.encode(item, `${path}.${i}`)) : this.encode(value, path);
    }

    private encode(value: unknown, path: string): unknown {
        if (value === null || value === undefined) return value;
        const [json, tags] = encodeScalar(value);
        if (tags !== undefined) this.tag(path, tags);
        return json;
    }

    /** To-one linkage without an include: from the foreign key(s), or from the selected related id (undefined: not known). */
    private toOne(r: RelationshipPlan, record: DbRecord): ResourceIdentifier | null | undefined {
        const target = r.rel.target;
        if (keysRead(r, record)) {
            const ids: DbRecord = {};
            for (let i = 0; i < r.fkFields!.length; i++) {
                const v = record[r.fkFields![i]];
                if (v === null) return null;
                ids[target.idFields[i].name] = v;
            }
            return this.identifier(target, ids);
        }
        const related = record[r.name] as DbRecord | null | undefined;
        return related ? this.identifier(target, related) : nullLinkage(r, record);
    }

    /** Sets an included relationship's linkage; one cut at `pageSize` gets links to the next page of its data. */
    private setLinkage(entry: RelationshipObject, r: RelationshipPlan, record: DbRecord, data: Linkage): void {
        entry.data = data;
        const related = record[r.name];
        if (!r.isArray || !Array.isArray(related) || related.length <= this.pageSize) return;
        const page = `${entry.links.self}?page[limit]=${this.pageSize}`;
        entry.links.first = page;
        entry.links.next = `${entry.links.self}?page[offset]=${this.pageSize}&page[limit]=${this.pageSize}`;
    }

    /**
     * Linkage of an included relationship (to-many: its first `pageSize` members; undefined: not known); queues the
     * related records for `included`.
     */
    private linkage(r: RelationshipPlan, record: DbRecord, sub: IncludeTree): Linkage | undefined {
        const target = r.rel.target;
        const related = record[r.name];
        if (r.isArray) {
            const all = Array.isArray(related) ? (related as DbRecord[]) : [];
            const list = all.length > this.pageSize ? all.slice(0, this.pageSize) : all;
            return list.map((item) => {
                this.queue.push({ model: target, record: item, tree: sub });
                return this.identifier(target, item);
            });
        }
        if (related && typeof related === 'object') {
            this.queue.push({ model: target, record: related as DbRecord, tree: sub });
        }
        // the owner side states the link through its foreign key even when the target is not readable
        return r.fkFields ? this.toOne(r, record) : related ? this.identifier(target, related as DbRecord) : nullLinkage(r, record);
    }
}
