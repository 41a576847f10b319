import type { ModelMeta } from '@zenstackhq/runtime';
import { getModelRegistry, type ModelDef, type RelationField, type ScalarField } from '../common/model-registry';
import type { RestConfig } from './options';

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
    /** Resource type name (`post`, `postComment`, or the mapped name). */
    type: string;
    /** Prisma client delegate key (`post`). */
    key: string;
    idFields: readonly ScalarField[];
    /** Scalar fields that are attributes: every scalar but the id fields and `@omit` fields (never readable). */
    attributes: ReadonlyMap<string, ScalarField>;
    relationships: ReadonlyMap<string, RestRelationship>;
    /** `{endpoint}/{type}/`: prefix of every resource link of this type. */
    linkPrefix: string;
}

export interface RestSchema {
    modelMeta: ModelMeta;
    /** By model key (`post`). */
    byKey: ReadonlyMap<string, RestModel>;
    /** By resource type name. */
    byType: ReadonlyMap<string, RestModel>;
}

function typeNameOf(def: ModelDef, mapping: Readonly<Record<string, string>>): string {
    const mapped = Object.prototype.hasOwnProperty.call(mapping, def.name)
        ? mapping[def.name]
        : Object.prototype.hasOwnProperty.call(mapping, def.key)
          ? mapping[def.key]
          : undefined;
    return mapped ?? def.key;
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
    const byType = new Map<string, RestModel>();
    const pending: { def: ModelDef; relationships: Map<string, RestRelationship> }[] = [];

    for (const def of registry.models.values()) {
        const type = typeNameOf(def, config.modelNameMapping);
        const attributes = new Map<string, ScalarField>();
        for (const [name, field] of def.scalars) {
            if (!field.isId && !field.omitted) {
                attributes.set(name, field);
            }
        }
        // filled in below, once every model exists (types refer to each other)
        const relationships = new Map<string, RestRelationship>();
        pending.push({ def, relationships });
        const model: RestModel = {
            def,
            type,
            key: def.key,
            idFields: def.idFields,
            attributes,
            relationships,
            linkPrefix: `${config.endpoint}/${encodeURIComponent(type)}/`,
        };
        byKey.set(def.key, model);
        if (byType.has(type)) {
            throw new Error(`RestApiHandler: two models map to the resource type "${type}"`);
        }
        byType.set(type, model);
    }
    for (const { def, relationships } of pending) {
        for (const [name, field] of def.relations) {
            relationships.set(name, relationshipOf(name, field, byKey));
        }
    }
    return { modelMeta, byKey, byType };
}

/** Caches the REST schema per modelMeta for one handler (its options are fixed). */
export function restSchemaCache(config: RestConfig): (modelMeta: ModelMeta) => RestSchema {
    const cache = new WeakMap<ModelMeta, RestSchema>();
    return (modelMeta) => {
        let schema = cache.get(modelMeta);
        if (!schema) {
            schema = buildRestSchema(modelMeta, config);
            cache.set(modelMeta, schema);
        }
        return schema;
    };
}
