import type { FieldInfo, ModelMeta } from '@zenstackhq/runtime';
import { lowerCaseFirst } from 'lower-case-first';
import { isInt32 } from './guards';

/** Scalar kinds the handlers treat differently; every enum is `Enum`. */
export type ScalarKind =
    | 'String'
    | 'Int'
    | 'Float'
    | 'Boolean'
    | 'DateTime'
    | 'BigInt'
    | 'Decimal'
    | 'Bytes'
    | 'Json'
    | 'Enum'
    | 'Unsupported';

const BUILTIN_KINDS = new Set<string>(['String', 'Int', 'Float', 'Boolean', 'DateTime', 'BigInt', 'Decimal', 'Bytes', 'Json']);

/** Kinds whose values do not survive plain JSON and need serialization metadata. */
export const COMPLEX_KINDS: ReadonlySet<ScalarKind> = new Set<ScalarKind>(['DateTime', 'BigInt', 'Decimal', 'Bytes']);

export interface ScalarField {
    name: string;
    /** The type as written in the schema (`Int`, `Role`, …). */
    type: string;
    kind: ScalarKind;
    isArray: boolean;
    isOptional: boolean;
    isId: boolean;
    isForeignKey: boolean;
    isAutoIncrement: boolean;
    /** `@default(…)`: a value the database or ORM gives when a create leaves the field out. */
    hasDefault: boolean;
    /** For a foreign key: the relation field it belongs to. */
    relationField?: string;
    /**
     * Reading it is restricted beyond the row (field-level `@allow`/`@deny` on read, `@omit`, `@password`):
     * ordering, grouping or aggregating by it would reveal values the user may not read.
     */
    readProtected: boolean;
    /** A field-level `@allow`/`@deny` of updates (`update`, `post-update` or `all`). */
    updateRuled: boolean;
    /** A read rule that overrides the model's (`@allow('read', condition, true)`): readable on rows the model's rule hides. */
    readOverride: boolean;
    /** A read override whose condition is the literal `true`, and no field-level read `@deny`: readable on every row. */
    readOverrideForAll: boolean;
    /** `@omit`: never returned, and ZenStack does not guard filters on it. */
    omitted: boolean;
    /** `@password`: ZenStack stores a hash of the value written (bcrypt). */
    hashed: boolean;
    /** A native uuid column (`@db.Uuid`): the database compares its values case-insensitively and answers them lower-case. */
    isUuid: boolean;
    /** A case-insensitive text column (`@db.Citext`): the database compares its values case-insensitively and answers them as stored. */
    isCitext: boolean;
    /**
     * A fixed-length text column (`@db.Char(n)`): the database pads its values with spaces to `n` characters, answers
     * them padded and compares them without trailing spaces (`ab` names the record stored as `ab  `).
     */
    isChar: boolean;
    /** An `Int` stored as a PostgreSQL `oid` (`@db.Oid`): unsigned 32-bit, up to 4294967295, beyond Prisma's usual `Int`. */
    isOid: boolean;
    /**
     * A strongly typed JSON field (`address Address @json`, `tags Tag[] @json`): the name of its `type`.
     * Its kind is `Json` and it is never a scalar list (the column holds one JSON value, an array too);
     * ZenStack turns the `DateTime`s inside into `Date`s when it reads one.
     */
    typeDef?: string;
    info: FieldInfo;
}

export interface RelationField {
    name: string;
    /** The related model's name as written in the schema (`User`). */
    targetName: string;
    /** The related model's key in the model metadata (`user`). */
    targetKey: string;
    /** To-many relationship. */
    isArray: boolean;
    isOptional: boolean;
    /** This side holds the foreign key(s). */
    isOwner: boolean;
    /** For the owning side: related (referenced) field → local foreign key field. */
    foreignKeyMapping?: Record<string, string>;
    backLink?: string;
    /**
     * Both sides are to-one (a one-to-one relation; the owner's foreign key is unique). Linking a record
     * on either side makes Prisma detach the record linked before, on the other side of the change too.
     */
    oneToOne: boolean;
    /** Both sides are to-many: an implicit many-to-many relation (a join table Prisma keeps). */
    manyToMany: boolean;
    /**
     * A many-to-many relation whose sides ZenStack 2.x's metadata marks as owned by neither (one from a model to
     * itself): its policy engine checks no update rule when records are linked or unlinked through it.
     */
    unguardedManyToMany: boolean;
    /**
     * The other side's relation field (`backLink`) is optional. On a one-to-one non-owner side this is the
     * owner's foreign key: when it may be null, Prisma detaches a displaced record silently (an update of
     * it, which the policy engine does not check); when it may not, the change fails.
     */
    otherSideOptional: boolean;
    /**
     * To-one, from the side without the key, to a model not everyone may read in full: ZenStack adds the related read
     * rule to a truthy condition on it only, so a `null` one matches by a related row the user may not read.
     */
    nullMatchesHidden: boolean;
    /** Field-level read rules on the relation itself. */
    readProtected: boolean;
    info: FieldInfo;
}

export interface ModelDef {
    /** The model name as written in the schema (`PostComment`). */
    name: string;
    /** Its key in the model metadata and on the client: first letter lower-cased (`postComment`). */
    key: string;
    fields: ReadonlyMap<string, ScalarField | RelationField>;
    scalars: ReadonlyMap<string, ScalarField>;
    relations: ReadonlyMap<string, RelationField>;
    /** The `@id` field, or the fields of `@@id`, in declaration order. */
    idFields: readonly ScalarField[];
    /** Scalars whose values need serialization metadata (DateTime, BigInt, Decimal, Bytes). */
    complexScalars: readonly ScalarField[];
    /**
     * Scalars Prisma takes only in its "unchecked" input, the one without owned relations: autoincrement fields
     * and foreign keys.
     */
    uncheckedOnlyScalars: readonly ScalarField[];
    /** `@updatedAt` scalars: the ORM sets them to now on every update that does not give them. */
    updatedAtFields: readonly ScalarField[];
    /** Scalars the database generates with `@default(autoincrement())`. */
    autoIncrementScalars: readonly ScalarField[];
    /** Unique constraints by name (includes the id). */
    uniqueConstraints: Readonly<Record<string, { name: string; fields: string[] }>>;
    /** Whether any relation is to-many (what a `_count` selection can count). */
    hasToMany: boolean;
    /** Everyone may read every row (`@@allow('read', true)`, no read `@@deny`): counting its rows reveals nothing. */
    readableByAll: boolean;
    /** How many model-level rules (`@@allow`/`@@deny`) it has for updates and for deletes, those it takes from a base model included. */
    writeRules: Readonly<Record<'update' | 'delete', number>>;
    /**
     * A field has a read rule that overrides the model's (`@allow('read', condition, true)`): ZenStack lets a
     * filter made only of such fields reach rows the model's read rule hides (see `common/read-override.ts`).
     */
    hasReadOverrides: boolean;
    /** A scalar field is read-protected (`ScalarField.readProtected`): filters on this model may need the policy checks. */
    hasReadProtected: boolean;
    /** The models this one `extends` (a ZenStack `@@delegate` hierarchy), by schema name. */
    baseTypes: readonly string[];
    /**
     * Part of a `@@delegate` hierarchy (the base or a model extending it). ZenStack rewrites writes to such
     * models: foreign key values become `connect`s again, for one.
     */
    delegated: boolean;
    /** For a `@@delegate` model: the field naming the model right under it that each row belongs to (`assetType`). */
    discriminator?: string;
    /** Database column → scalar field, for the fields whose column is named apart (`@map("person_id")`). */
    mappedColumns: ReadonlyMap<string, string>;
}

export interface ModelRegistry {
    readonly modelMeta: ModelMeta;
    /** By metadata key (`post`). */
    readonly models: ReadonlyMap<string, ModelDef>;
    /** By schema name (`Post`). */
    readonly byName: ReadonlyMap<string, ModelDef>;
    /** Finds a model from a URL segment: `post` or `Post`. Never consults object prototypes. */
    find(segment: string): ModelDef | undefined;
    /** Whether any field of any model is read-protected (a field-level read rule, `@omit`, `@password`). */
    readonly hasReadProtectedFields: boolean;
    /** Whether any model has a field whose read rule overrides the model's (`ModelDef.hasReadOverrides`). */
    readonly hasReadOverrides: boolean;
    /** Whether any model has a `@password` field (`ScalarField.hashed`). */
    readonly hasHashedFields: boolean;
    /** A relation has `nullMatchesHidden`. */
    readonly hasNullMatchingHidden: boolean;
    /** The models that extend a model directly (`baseTypes`), by the base's schema name; models nothing extends are absent. */
    readonly extendedBy: ReadonlyMap<string, readonly ModelDef[]>;
}

/** `{ id: true }` (every id field of a compound id): the smallest select that tells whether a record is there; a new object per call, as the ORM may change what it is given. */
export function idSelect(model: ModelDef): Record<string, true> {
    const select: Record<string, true> = {};
    for (const f of model.idFields) select[f.name] = true;
    return select;
}

/** The unique filter of a record from its id fields (`{ id }`, or `{ a_b: { a, b } }` for a compound id). */
export function uniqueWhere(model: ModelDef, record: Record<string, unknown>): Record<string, unknown> {
    if (model.idFields.length === 1) return { [model.idFields[0].name]: record[model.idFields[0].name] };
    const names = model.idFields.map((f) => f.name);
    const constraint = Object.values(model.uniqueConstraints).find((c) => c.fields.length === names.length && names.every((n) => c.fields.includes(n)));
    const values: Record<string, unknown> = {};
    for (const n of names) values[n] = record[n];
    return { [constraint?.name ?? names.join('_')]: values };
}

/** The unique constraint named `name` (`id`, `email`, `a_b`), never one of the prototype's members (`toString`). */
export function uniqueConstraint(model: ModelDef, name: string): { name: string; fields: string[] } | undefined {
    return Object.prototype.hasOwnProperty.call(model.uniqueConstraints, name) ? model.uniqueConstraints[name] : undefined;
}

/**
 * Fields that name every record of a model: its id fields when none is optional, else the first unique constraint of
 * required fields, else none. ZenStack takes the first `@unique` field for the id of a model without `@id`, optional
 * or not; a record whose value is null there has no identity by it. A view needs no unique field at all, and the data
 * layer offers `findUnique` (and writes) only on models with such fields.
 */
export function requiredUniqueFields(model: ModelDef): readonly ScalarField[] {
    if (model.idFields.every((f) => !f.isOptional)) return model.idFields;
    for (const c of Object.values(model.uniqueConstraints)) {
        const fields = c.fields.map((name) => model.scalars.get(name));
        if (fields.every((f) => f !== undefined && !f.isOptional)) return fields as ScalarField[];
    }
    return [];
}

/**
 * The unique constraints a unique `where` names (`update`, `connect`, …), in declaration order: a single field
 * by its name, a compound one by its key (`a_b`).
 */
export function coveredConstraints(model: ModelDef, where: Record<string, unknown>): { key: string; fields: string[] }[] {
    const out: { key: string; fields: string[] }[] = [];
    for (const c of Object.values(model.uniqueConstraints)) {
        const key = c.fields.length === 1 ? c.fields[0] : c.name;
        if (Object.prototype.hasOwnProperty.call(where, key)) out.push({ key, fields: c.fields });
    }
    return out;
}

/** Whether any of `fields` has a field-level read rule. */
export function anyReadProtected(model: ModelDef, fields: readonly string[]): boolean {
    return fields.some((f) => model.scalars.get(f)?.readProtected === true);
}

/**
 * A value of a field in the form the database compares it: text of a `@db.Citext` or `@db.Uuid` column in lower
 * case (PostgreSQL compares both case-insensitively: `abc` names the record stored as `ABC`), text of a `@db.Char(n)`
 * column without trailing spaces (`ab` names the record stored, and answered, as `ab  `), anything else as it is.
 */
export function comparableValue(field: Pick<ScalarField, 'isCitext' | 'isUuid' | 'isChar'>, value: unknown): unknown {
    if (typeof value !== 'string') return value;
    if (field.isChar) return withoutTrailingSpaces(value);
    return field.isCitext || field.isUuid ? value.toLowerCase() : value;
}

/**
 * `text` without its trailing spaces, by a scan from the end: the pattern `/ +$/` tries every run of spaces up to
 * the end of the text, and a request's value of many spaces followed by anything else kept the process busy for
 * minutes (200,000 spaces: 45 s).
 */
function withoutTrailingSpaces(text: string): string {
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
    return end === text.length ? text : text.slice(0, end);
}

/** The largest value of an `Int` stored as a PostgreSQL `oid` (unsigned 32-bit). */
export const OID_MAX = 4294967295;

/**
 * Whether an `Int` field can hold `value`: a 32-bit signed integer, as Prisma's `Int`; for an `Int @db.Oid` also up
 * to 4294967295, which the database answers for such a column (a negative 32-bit one it stores as its unsigned
 * counterpart: `-1` as 4294967295).
 */
export function fitsIntField(field: Pick<ScalarField, 'isOid'>, value: unknown): value is number {
    return isInt32(value) || (field.isOid && typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= OID_MAX);
}

export function isRelation(field: ScalarField | RelationField): field is RelationField {
    return 'targetKey' in field;
}

function hasAttribute(field: FieldInfo, name: string): boolean {
    return !!field.attributes?.some((a) => a.name === name);
}

type Attribute = NonNullable<FieldInfo['attributes']>[number];

/** Whether a policy attribute's operations include one of `ops`. */
function coversAny(a: Attribute, ops: readonly string[]): boolean {
    const op = a.args.find((arg) => arg.name === 'operation')?.value ?? a.args[0]?.value;
    return typeof op === 'string' && op.split(',').some((o) => ops.includes(o.trim()));
}

/** Whether a policy attribute's operations include read (`read`, or `all`). */
function coversRead(a: Attribute): boolean {
    return coversAny(a, ['read', 'all']);
}

/** How many model-level `@@allow`/`@@deny` name one of `ops`. */
function modelRules(attributes: readonly Attribute[] | undefined, ops: readonly string[]): number {
    return (attributes ?? []).filter((a) => (a.name === '@@allow' || a.name === '@@deny') && coversAny(a, ops)).length;
}

/** A field-level `@allow`/`@deny` whose operations include updates. */
function hasUpdateRule(field: FieldInfo): boolean {
    return !!field.attributes?.some((a) => (a.name === '@allow' || a.name === '@deny') && coversAny(a, ['update', 'post-update', 'all']));
}

/** A field-level `@allow`/`@deny` whose operations include read (or all). */
function hasReadRule(field: FieldInfo): boolean {
    return !!field.attributes?.some((a) => (a.name === '@allow' || a.name === '@deny') && coversRead(a));
}

/** A field-level `@allow` of read with `override` set (`@allow('read', condition, true)`). */
function hasReadOverride(field: FieldInfo): boolean {
    return !!field.attributes?.some((a) => {
        if (a.name !== '@allow' || !coversRead(a)) return false;
        const override = a.args.find((arg) => arg.name === 'override') ?? a.args[2];
        return !!override && 'value' in override && override.value === true;
    });
}

/** `@allow('read', true, true)` and no field-level read `@deny` (but a literal `false` one): readable on every row. */
function hasReadOverrideForAll(field: FieldInfo): boolean {
    let open = false;
    for (const a of field.attributes ?? []) {
        if ((a.name !== '@allow' && a.name !== '@deny') || !coversRead(a)) continue;
        const condition = a.args.find((arg) => arg.name === 'condition') ?? a.args[1];
        const literal = condition && 'value' in condition ? condition.value : undefined;
        if (a.name === '@deny' && literal !== false) return false;
        const override = a.args.find((arg) => arg.name === 'override') ?? a.args[2];
        if (a.name === '@allow' && literal === true && !!override && 'value' in override && override.value === true) open = true;
    }
    return open;
}

/**
 * Whether everyone may read every row: an `@@allow` of read whose condition is the literal `true`, and
 * no `@@deny` of read (but a literal `false` one). The metadata keeps literal conditions only.
 */
function readableByAll(attributes: readonly Attribute[] | undefined): boolean {
    let allowed = false;
    for (const a of attributes ?? []) {
        if ((a.name !== '@@allow' && a.name !== '@@deny') || !coversRead(a)) continue;
        const condition = a.args.find((arg) => arg.name === 'condition') ?? a.args[1];
        const literal = condition && 'value' in condition ? condition.value : undefined;
        if (a.name === '@@deny' && literal !== false) return false;
        if (a.name === '@@allow' && literal === true) allowed = true;
    }
    return allowed;
}

function scalarKind(field: FieldInfo): ScalarKind {
    if (field.isTypeDef) {
        return 'Json';
    }
    if (BUILTIN_KINDS.has(field.type)) {
        return field.type as ScalarKind;
    }
    // ZenStack 2.22 writes an `Unsupported("…")` field's type as the text "undefined" in the metadata
    if (field.type === 'Unsupported' || field.type === 'undefined') {
        return 'Unsupported';
    }
    return 'Enum';
}

function buildModel(key: string, meta: ModelMeta): ModelDef {
    const info = meta.models[key];
    const fields = new Map<string, ScalarField | RelationField>();
    const scalars = new Map<string, ScalarField>();
    const relations = new Map<string, RelationField>();

    for (const [name, field] of Object.entries(info.fields)) {
        if (field.isDataModel) {
            const rel: RelationField = {
                name,
                targetName: field.type,
                targetKey: lowerCaseFirst(field.type),
                isArray: !!field.isArray,
                isOptional: !!field.isOptional,
                isOwner: !!field.isRelationOwner,
                foreignKeyMapping: field.foreignKeyMapping,
                backLink: field.backLink,
                // set once every model is known (linkBackSides)
                oneToOne: false,
                manyToMany: false,
                unguardedManyToMany: false,
                otherSideOptional: false,
                nullMatchesHidden: false,
                readProtected: hasReadRule(field),
                info: field,
            };
            relations.set(name, rel);
            fields.set(name, rel);
        } else {
            const omitted = hasAttribute(field, '@omit');
            const kind = scalarKind(field);
            const scalar: ScalarField = {
                name,
                type: kind === 'Unsupported' ? 'Unsupported' : field.type,
                kind,
                isArray: !!field.isArray && !field.isTypeDef,
                isOptional: !!field.isOptional,
                isId: !!field.isId,
                isForeignKey: !!field.isForeignKey,
                isAutoIncrement: !!field.isAutoIncrement,
                hasDefault: hasAttribute(field, '@default'),
                relationField: field.relationField,
                readProtected: omitted || hasAttribute(field, '@password') || hasReadRule(field),
                updateRuled: hasUpdateRule(field),
                readOverride: hasReadOverride(field),
                readOverrideForAll: hasReadOverrideForAll(field),
                omitted,
                hashed: hasAttribute(field, '@password'),
                isUuid: hasAttribute(field, '@db.Uuid'),
                isCitext: hasAttribute(field, '@db.Citext'),
                isChar: hasAttribute(field, '@db.Char'),
                isOid: hasAttribute(field, '@db.Oid'),
                typeDef: field.isTypeDef ? field.type : undefined,
                info: field,
            };
            scalars.set(name, scalar);
            fields.set(name, scalar);
        }
    }

    const idFields = [...scalars.values()].filter((f) => f.isId);
    const complexScalars = [...scalars.values()].filter((f) => COMPLEX_KINDS.has(f.kind));
    const autoIncrementScalars = [...scalars.values()].filter((f) => f.isAutoIncrement);
    const updatedAtFields = [...scalars.values()].filter((f) => hasAttribute(f.info, '@updatedAt'));
    const uncheckedOnlyScalars = [...scalars.values()].filter((f) => f.isAutoIncrement || f.isForeignKey);
    const mappedColumns = new Map<string, string>();
    for (const f of scalars.values()) {
        const column = f.info.attributes?.find((a) => a.name === '@map')?.args[0]?.value;
        if (typeof column === 'string') mappedColumns.set(column, f.name);
    }

    return {
        name: info.name,
        key,
        fields,
        scalars,
        relations,
        idFields,
        complexScalars,
        autoIncrementScalars,
        updatedAtFields,
        uncheckedOnlyScalars,
        uniqueConstraints: info.uniqueConstraints ?? {},
        hasToMany: [...relations.values()].some((r) => r.isArray),
        readableByAll: readableByAll(info.attributes),
        writeRules: { update: modelRules(info.attributes, ['update', 'post-update', 'all']), delete: modelRules(info.attributes, ['delete', 'all']) },
        hasReadOverrides: Object.values(info.fields).some(hasReadOverride),
        hasReadProtected: [...scalars.values()].some((f) => f.readProtected),
        baseTypes: info.baseTypes ?? [],
        discriminator: (info as { discriminator?: string }).discriminator,
        delegated: (info.baseTypes?.length ?? 0) > 0 || !!info.attributes?.some((a) => a.name === '@@delegate'),
        mappedColumns,
    };
}

/**
 * The models that extend `base` (`baseTypes`, a `@@delegate` hierarchy), directly or through others, each once:
 * from the registry's index of direct subtypes, so that asking it of every model stays linear in the schema's size.
 */
export function descendantsOf(registry: ModelRegistry, base: ModelDef): ModelDef[] {
    const found: ModelDef[] = [];
    const seen = new Set([base.name]);
    const walk = (name: string) => {
        for (const m of registry.extendedBy.get(name) ?? []) {
            if (seen.has(m.name)) continue;
            seen.add(m.name);
            found.push(m);
            walk(m.name);
        }
    };
    walk(base.name);
    return found;
}

/** The direct subtypes of each model that has any, in declaration order. */
function subtypesByBase(models: ReadonlyMap<string, ModelDef>): Map<string, ModelDef[]> {
    const index = new Map<string, ModelDef[]>();
    for (const m of models.values()) {
        for (const base of m.baseTypes) {
            const list = index.get(base);
            if (list) list.push(m);
            else index.set(base, [m]);
        }
    }
    return index;
}

/** Fills in what a relation knows from its other side: `oneToOne`, `otherSideOptional`. */
function linkBackSides(models: ReadonlyMap<string, ModelDef>): void {
    for (const model of models.values()) {
        for (const rel of model.relations.values()) {
            const other = rel.backLink ? models.get(rel.targetKey)?.relations.get(rel.backLink) : undefined;
            if (!other) continue;
            rel.oneToOne = !rel.isArray && !other.isArray;
            rel.manyToMany = rel.isArray && other.isArray;
            rel.unguardedManyToMany = rel.manyToMany && !rel.isOwner && !other.isOwner;
            rel.otherSideOptional = other.isOptional;
            rel.nullMatchesHidden = !rel.isArray && !rel.isOwner && models.get(rel.targetKey)?.readableByAll === false;
        }
    }
}

const cache = new WeakMap<ModelMeta, ModelRegistry>();

/** The registry for a model metadata object, derived once and cached for the life of that object. */
export function getModelRegistry(modelMeta: ModelMeta): ModelRegistry {
    let registry = cache.get(modelMeta);
    if (!registry) {
        const models = new Map<string, ModelDef>();
        const byName = new Map<string, ModelDef>();
        for (const key of Object.keys(modelMeta.models)) {
            const def = buildModel(key, modelMeta);
            models.set(key, def);
            byName.set(def.name, def);
        }
        linkBackSides(models);
        registry = {
            modelMeta,
            models,
            byName,
            find: (segment) => models.get(segment) ?? byName.get(segment) ?? models.get(lowerCaseFirst(segment)),
            hasReadProtectedFields: [...models.values()].some((m) => [...m.fields.values()].some((f) => f.readProtected)),
            hasReadOverrides: [...models.values()].some((m) => m.hasReadOverrides),
            hasHashedFields: [...models.values()].some((m) => [...m.scalars.values()].some((f) => f.hashed)),
            hasNullMatchingHidden: [...models.values()].some((m) => [...m.relations.values()].some((r) => r.nullMatchesHidden)),
            extendedBy: subtypesByBase(models),
        };
        cache.set(modelMeta, registry);
    }
    return registry;
}
