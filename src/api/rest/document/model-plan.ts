import type { ScalarField } from '../../common/model-registry';
import type { RestModel, RestRelationship } from '../schema';

/**
 * Everything request-independent about rendering one resource type, computed once per RestModel:
 * which attributes exist and which need serialization tags, how each relationship's links end, and
 * whether a to-one identifier can be read from the foreign key(s) without touching the related table.
 */

export interface AttributePlan {
    name: string;
    field: ScalarField;
    /**
     * The value needs serialization metadata (DateTime, BigInt, Decimal, Bytes; scalar lists of them too), or may (a
     * `Float[]`, whose NaN, ±Infinity and -0 items JSON cannot write; a single Float is checked by value).
     */
    complex: boolean;
    /** A typed JSON field: any value inside may need serialization metadata (a `DateTime` of its type). */
    deep: boolean;
    /** `.attributes.<name>`: the end of the attribute's serialization path below its resource. */
    pathSuffix: string;
}

export interface RelationshipPlan {
    name: string;
    rel: RestRelationship;
    isArray: boolean;
    /** `/relationships/{name}`, appended to the resource's self link. */
    selfSuffix: string;
    /** `/{name}`, appended to the resource's self link. */
    relatedSuffix: string;
    /**
     * Owner-side to-one whose foreign keys reference exactly the target's id fields: local FK field
     * names in the order of the target's id fields. The identifier comes from them, no join needed.
     */
    fkFields?: readonly string[];
    /** Owner-side to-one: its local foreign key fields and the target fields they reference, in the same order. */
    linkKeys?: { local: readonly string[]; referenced: readonly string[] };
    /**
     * Included, it is read apart from the records that include it (see operations/read/to-one-apart.ts):
     * a required to-one (owner side) to a model not everyone may read; one with a field-level read rule of its own
     * is read apart too, where that rule is asked of ZenStack by one more read. ZenStack turns the target's read rule of such an include into a filter on the including records,
     * so `include` would drop readable records from the primary data. When its foreign keys are not the
     * target's resource id (`externalIdMapping`), its linkage is read apart too, included or not
     * (`linkageApart`).
     */
    loadedApart: boolean;
    /** Read apart (`loadedApart`) without `fkFields`: its linkage comes from its target, read apart as well. */
    linkageApart: boolean;
}

export interface ModelPlan {
    model: RestModel;
    /** Attributes the client can select (Unsupported fields are not in the client). */
    attributes: readonly AttributePlan[];
    attributeByName: ReadonlyMap<string, AttributePlan>;
    relationships: readonly RelationshipPlan[];
    relationshipByName: ReadonlyMap<string, RelationshipPlan>;
    /**
     * A `@@delegate` base model's view of the attributes its descendants add (`duration` of a `Video`
     * read as an `Asset`), by name, each once: rendered when a record holds them. Empty for other models.
     */
    concreteAttributes: readonly AttributePlan[];
    /** The relationships whose linkage is read apart (`linkageApart`). */
    linkedApart: readonly RelationshipPlan[];
}

function fkFieldsOf(rel: RestRelationship): string[] | undefined {
    const field = rel.field;
    if (rel.isArray || !field.isOwner || !field.foreignKeyMapping) {
        return undefined;
    }
    const mapping = field.foreignKeyMapping;
    const targetIds = rel.target.idFields.map((f) => f.name);
    const referenced = Object.keys(mapping);
    if (referenced.length !== targetIds.length || !targetIds.every((id) => Object.prototype.hasOwnProperty.call(mapping, id))) {
        return undefined;
    }
    return targetIds.map((id) => mapping[id]);
}

function linkKeysOf(rel: RestRelationship): RelationshipPlan['linkKeys'] {
    const mapping = rel.field.foreignKeyMapping;
    if (rel.isArray || !rel.field.isOwner || !mapping) return undefined;
    const referenced = Object.keys(mapping);
    return { local: referenced.map((f) => mapping[f]), referenced };
}

/**
 * The attributes of `model`'s descendants that it does not have itself (nor as its id), except those
 * with field-level read rules, `@omit` or `@password`: ZenStack does not apply their rules to base
 * model reads (see common/delegate-fields.ts), so they are read through the concrete type only.
 */
function concreteAttributesOf(model: RestModel): AttributePlan[] {
    const own = new Set([...model.attributes.keys(), ...model.idFields.map((f) => f.name)]);
    // a name protected in one concrete model is left out of every record: another model's plain field of that name was
    // planned, and then read from the records of the first (`Image.secret` through `Audio.secret`), as the RPC handler
    // leaves it out (common/delegate-fields.ts)
    const hidden = new Set<string>();
    for (const sub of model.descendants) for (const a of planOf(sub).attributes) if (a.field.readProtected) hidden.add(a.name);
    const found = new Map<string, AttributePlan>();
    for (const sub of model.descendants) {
        for (const a of planOf(sub).attributes) {
            if (hidden.has(a.name)) continue;
            // two concrete models may give one name different types: the builder encodes these by value
            if (!own.has(a.name) && !found.has(a.name)) found.set(a.name, a);
        }
    }
    return [...found.values()];
}

function buildPlan(model: RestModel): ModelPlan {
    const attributes: AttributePlan[] = [];
    for (const [name, field] of model.attributes) {
        if (field.kind === 'Unsupported') continue;
        attributes.push({ name, field, complex: model.def.complexScalars.includes(field) || (field.kind === 'Float' && field.isArray), deep: field.typeDef !== undefined, pathSuffix: `.attributes.${name}` });
    }
    const relationships: RelationshipPlan[] = [];
    for (const [name, rel] of model.relationships) {
        const fkFields = fkFieldsOf(rel);
        const linkKeys = linkKeysOf(rel);
        const loadedApart = linkKeys !== undefined && !rel.field.isOptional && !rel.target.def.readableByAll;
        relationships.push({
            name,
            rel,
            isArray: rel.isArray,
            selfSuffix: `/relationships/${encodeURIComponent(name)}`,
            relatedSuffix: `/${encodeURIComponent(name)}`,
            fkFields,
            linkKeys,
            loadedApart,
            linkageApart: loadedApart && fkFields === undefined,
        });
    }
    return {
        model,
        attributes,
        attributeByName: new Map(attributes.map((a) => [a.name, a])),
        relationships,
        relationshipByName: new Map(relationships.map((r) => [r.name, r])),
        concreteAttributes: concreteAttributesOf(model),
        linkedApart: relationships.filter((r) => r.linkageApart),
    };
}

const plans = new WeakMap<RestModel, ModelPlan>();

/** The plan of a resource type (cached for the life of the RestModel, i.e. of its modelMeta). */
/**
 * Whether a foreign key of a to-one the record holds was left out of it by the ORM (a field-level read rule, `@omit`):
 * then the keys tell nothing about the link.
 */
export function keysHidden(r: RelationshipPlan, record: Record<string, unknown>): boolean {
    const keys = r.linkKeys?.local;
    if (!keys) return false;
    for (let i = 0; i < keys.length; i++) if (record[keys[i]] === undefined) return true;
    return false;
}

export function planOf(model: RestModel): ModelPlan {
    let plan = plans.get(model);
    if (!plan) {
        plan = buildPlan(model);
        plans.set(model, plan);
    }
    return plan;
}
