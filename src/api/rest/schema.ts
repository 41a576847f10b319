import type { ModelMeta } from '@zenstackhq/runtime';
import { discriminatorsOf } from '../common/delegate-writes';
import { descendantsOf, getModelRegistry, requiredUniqueFields, uniqueConstraint, type ModelDef, type ModelRegistry, type RelationField, type ScalarField } from '../common/model-registry';
import type { RestConfig } from './options';
import { encodeNameSegment } from './document/links';

/** A relationship of a resource type, with its target resolved. */
export interface RestRelationship {
    name: string;
    field: RelationField;
    /** To-many. */
    isArray: boolean;
    readonly target: RestModel;
}

/** Everything the REST handler needs about one model, derived once per modelMeta. */
export interface RestModel {
    def: ModelDef;
    /** Resource type name in documents: the model name with a lower-case first letter (`post`, `postComment`). */
    type: string;
    /**
     * The type's URL path segment: the `modelNameMapping` name, else the type. (In 2.x the mapping
     * names URL paths only; documents keep the model's type.) Request bodies may name the type
     * either way.
     */
    segment: string;
    /** The names a request body may give this type: `type`, and `segment` unless that is another model's type. */
    typeNames: ReadonlySet<string>;
    /** Prisma client delegate key (`post`). */
    key: string;
    /** The fields that make the resource id: the `@id` field(s), or those of the unique constraint `externalIdMapping` names. */
    idFields: readonly ScalarField[];
    /**
     * Scalar fields that are attributes: every scalar but `@omit` fields (never readable) and a
     * single-field resource id (it is the resource's `id`). The fields of a compound id are attributes
     * too (as in `@zenstackhq/server` 2.x): the joined `id` is not meant to be parsed by clients.
     */
    attributes: ReadonlyMap<string, ScalarField>;
    /**
     * `@omit` scalar fields (a password hash, say): a request body may set them, as in 2.x (a sign-up
     * sends the password), but no document ever shows them, and filters, sorts and fieldsets refuse them.
     */
    writeOnly: ReadonlyMap<string, ScalarField>;
    relationships: ReadonlyMap<string, RestRelationship>;
    /**
     * For a ZenStack `@@delegate` base model: every model that extends it, directly or further down.
     * Its records are rows of those concrete models, and a read that selects no fields of its own gets
     * their fields too (the ORM merges them in); empty for every other model.
     */
    descendants: readonly RestModel[];
    /** The `@@delegate` discriminator fields among the attributes, which no request body sets (`common/delegate-writes.ts`). */
    discriminators: ReadonlySet<string>;
    /** `{endpoint}/{segment}/`: prefix of every resource link of this type. */
    linkPrefix: string;
    /**
     * A compound id's `idDivider` as `encodeURIComponent` writes it, and as links write it: literally when
     * RFC 3986 allows it in a path segment (`:`), so that a link passes a `urlSegmentCharset` admitting the
     * divider, as 2.x writes it. Absent when the two are the same.
     */
    dividerInLinks?: { encoded: string; literal: string };
    /** `urlSegmentCharset` as a pattern, when given: an id segment of a link must match it (`document/links.ts`). */
    segmentPattern?: RegExp;
}

const PATH_SEGMENT_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]+$/;

export interface RestSchema {
    modelMeta: ModelMeta;
    /** The model registry of `modelMeta` (what the filter guard walks). */
    registry: ModelRegistry;
    /** By model key (`post`). */
    byKey: ReadonlyMap<string, RestModel>;
    /** By URL path segment (the router's view). */
    bySegment: ReadonlyMap<string, RestModel>;
    /** By the names a request body may give a type: the resource type, and the URL segment where that names no other type. */
    byTypeName: ReadonlyMap<string, RestModel>;
    /**
     * The URL segments of models without an `@id` or `@unique` field of required fields (a database view): no resource
     * of theirs could have an `id`, so they are no resource types (their segments answer a 404 saying why), and relationships to them
     * are left out of the types that have them. The RPC handler serves them.
     */
    unidentified: ReadonlySet<string>;
}

/** Whether a type name in a request body names `model`: its resource type, or its URL segment (a mapped name that names no other type). */
export function namesType(model: RestModel, name: string): boolean {
    return model.typeNames.has(name);
}

/** The entry of a per-model option for a model, keyed by its name (`PostComment`) or its key (`postComment`). */
function mappedValue(def: ModelDef, mapping: Readonly<Record<string, string>>): string | undefined {
    if (Object.prototype.hasOwnProperty.call(mapping, def.name)) return mapping[def.name];
    return Object.prototype.hasOwnProperty.call(mapping, def.key) ? mapping[def.key] : undefined;
}

/**
 * The fields of a model's resource id: its `@id` field(s), or those of the unique constraint that
 * `externalIdMapping` names. A constraint that does not exist, or whose fields cannot always name a
 * readable record (optional, omitted or read-protected fields), is a configuration error. Without `@id`, ZenStack's id
 * is the first `@unique` field, which may be optional: then the first unique constraint of required fields is
 * (`requiredUniqueFields`), so that no resource has a null id; none, and the model is no resource type.
 */
function resourceIdFields(def: ModelDef, mapping: Readonly<Record<string, string>>): readonly ScalarField[] {
    const constraintName = mappedValue(def, mapping);
    if (constraintName === undefined) {
        return requiredUniqueFields(def);
    }
    const constraint = uniqueConstraint(def, constraintName);
    if (!constraint) {
        const known = Object.keys(def.uniqueConstraints).join(', ') || 'none';
        throw new Error(`RestApiHandler: externalIdMapping names "${constraintName}" for model ${def.name}, which has no such unique constraint (it has: ${known})`);
    }
    return constraint.fields.map((name) => {
        const field = def.scalars.get(name);
        if (!field) {
            throw new Error(`RestApiHandler: externalIdMapping: field "${name}" of model ${def.name} is not a scalar field`);
        }
        if (field.isOptional || field.readProtected) {
            const why = field.isOptional ? 'optional' : 'not readable by everyone who can read the record';
            throw new Error(`RestApiHandler: externalIdMapping: field "${name}" of model ${def.name} is ${why}, so it cannot identify every resource`);
        }
        return field;
    });
}

/** Every model an option names must exist: a misspelt name would otherwise be ignored silently. */
function checkModelNames(option: string, mapping: Readonly<Record<string, string>>, defs: Iterable<ModelDef>): void {
    const names = new Set<string>();
    for (const def of defs) {
        names.add(def.name);
        names.add(def.key);
    }
    for (const key of Object.keys(mapping)) {
        if (!names.has(key)) {
            throw new Error(`RestApiHandler: ${option} names model "${key}", which the schema does not have`);
        }
    }
}

/**
 * A relationship pointing at its target model. Metadata that names a model it does not hold
 * (hand-made or damaged) breaks only the requests that reach that relationship, not the whole schema.
 */
function relationshipOf(name: string, field: RelationField, byKey: ReadonlyMap<string, RestModel>): RestRelationship {
    const target = byKey.get(field.targetKey);
    if (target) {
        return { name, field, isArray: field.isArray, target };
    }
    return {
        name,
        field,
        isArray: field.isArray,
        get target(): never {
            throw new Error(`relation target model not found: ${field.targetName}`);
        },
    };
}

/** Builds the REST view of a model metadata object for one handler's options. */
export function buildRestSchema(modelMeta: ModelMeta, config: RestConfig): RestSchema {
    const registry = getModelRegistry(modelMeta);
    const byKey = new Map<string, RestModel>();
    const bySegment = new Map<string, RestModel>();
    const pending: { def: ModelDef; relationships: Map<string, RestRelationship>; typeNames: Set<string>; descendants: RestModel[] }[] = [];
    const unidentified = new Set<string>();

    checkModelNames('externalIdMapping', config.externalIdMapping, registry.models.values());
    for (const def of registry.models.values()) {
        const type = def.key;
        const segment = mappedValue(def, config.modelNameMapping) ?? type;
        const idFields = resourceIdFields(def, config.externalIdMapping);
        if (idFields.length === 0) {
            unidentified.add(segment);
            continue;
        }
        const attributes = new Map<string, ScalarField>();
        const writeOnly = new Map<string, ScalarField>();
        for (const [name, field] of def.scalars) {
            if (idFields.length > 1 || !idFields.includes(field)) {
                (field.omitted ? writeOnly : attributes).set(name, field);
            }
        }
        // filled in below, once every model exists (types refer to each other)
        const relationships = new Map<string, RestRelationship>();
        const typeNames = new Set([type]);
        const descendants: RestModel[] = [];
        pending.push({ def, relationships, typeNames, descendants });
        const model: RestModel = {
            def,
            type,
            segment,
            typeNames,
            key: def.key,
            idFields,
            attributes,
            writeOnly,
            relationships,
            descendants,
            discriminators: discriminatorsOf(registry, def),
            // under a `urlSegmentCharset`, as the router takes it (`my.users` as `my%2Eusers`)
            linkPrefix: `${config.endpoint}/${encodeNameSegment(segment, config.segmentPattern)}/`,
            segmentPattern: config.segmentPattern,
        };
        const encodedDivider = encodeURIComponent(config.idDivider);
        if (idFields.length > 1 && encodedDivider !== config.idDivider && PATH_SEGMENT_CHARS.test(config.idDivider)) {
            model.dividerInLinks = { encoded: encodedDivider, literal: config.idDivider };
        }
        byKey.set(def.key, model);
        if (bySegment.has(segment)) {
            throw new Error(`RestApiHandler: two models map to the URL path "${segment}"`);
        }
        bySegment.set(segment, model);
    }
    const byTypeName = new Map<string, RestModel>([...byKey.values()].map((m) => [m.type, m]));
    for (const { def, relationships, typeNames, descendants } of pending) {
        descendants.push(...descendantsOf(registry, def).map((d) => byKey.get(d.key) as RestModel));
        for (const [name, field] of def.relations) {
            if (!byKey.has(field.targetKey) && registry.models.has(field.targetKey)) {
                // a model without ids (above): its records cannot be linked to
                continue;
            }
            relationships.set(name, relationshipOf(name, field, byKey));
        }
        const model = byKey.get(def.key) as RestModel;
        if (!byTypeName.has(model.segment)) {
            byTypeName.set(model.segment, model);
            typeNames.add(model.segment);
        }
    }
    return { modelMeta, registry, byKey, bySegment, byTypeName, unidentified };
}

/** Caches the REST schema per modelMeta for one handler (its options are fixed). */
export function restSchemaCache(config: RestConfig): (modelMeta: ModelMeta) => RestSchema {
    // a configuration the metadata refuses (externalIdMapping naming no usable constraint …) is kept
    // too: every request answers the same 500 with the reason logged, without rebuilding
    const cache = new WeakMap<ModelMeta, RestSchema | Error>();
    return (modelMeta) => {
        let schema = cache.get(modelMeta);
        if (!schema) {
            try {
                schema = buildRestSchema(modelMeta, config);
            } catch (err) {
                schema = err instanceof Error ? err : new Error(String(err));
            }
            cache.set(modelMeta, schema);
        }
        if (schema instanceof Error) throw schema;
        return schema;
    };
}
