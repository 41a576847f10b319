import { BadRequestError } from '../../common/errors';
import { checkWhere, hoistConjunctions } from '../../common/filter-guard';
import { isRelation, type ModelRegistry, type ScalarField } from '../../common/model-registry';
import { RestError } from '../errors';
import { whereById } from '../ids';
import type { RestModel, RestRelationship } from '../schema';
import { isFilterable, parseBooleanFlag, parseFilterValue, type EnumLookup } from './filter-values';
import { equality, findOperator, OPERATOR_NAMES, readsText, type OperatorDef, type Where } from './operators';
import { jsonCondition, jsonListCondition } from './json-filter';
import { mergeFilters } from './filter-merge';
import type { FilterParam } from './params';

/**
 * `filter[...]` parameters → a Prisma `where`. Every parameter must hold (AND); comma-separated
 * values mean any-of; selectors walk relationships (`is` on to-one, `some` on to-many, at every
 * level); the last selector may carry an operator (`$contains`). Everything is checked against the
 * model: an unknown field or operator, or a badly typed value, is a 400, never a database error.
 */

export interface FilterContext {
    /** Database provider of the client (`sqlite`, `postgresql`, …). */
    provider: string;
    /** Preview features of the client (full-text search needs one). */
    previewFeatures: readonly string[];
    maxFilters: number;
    /** Most relationships one filter path may go through (`filter[author][posts][title]` goes through 2). */
    maxDepth: number;
    /** Id divider, for `filter[relationship]=id` on compound ids. */
    idDivider: string;
    enumValues: EnumLookup;
    /** Prisma's `AnyNull` of the request's client (what `filter[json]=null` compares with). */
    anyNull: () => unknown;
    registry: ModelRegistry;
}

/** Most comma-separated values in one parameter. */
export const MAX_FILTER_VALUES = 1000;

/** Providers whose full-text search is a Prisma preview feature (generally available on MySQL since Prisma 6). */
const SEARCH_PREVIEW: Record<string, readonly string[]> = {
    postgresql: ['fullTextSearchPostgres', 'fullTextSearch'],
};

function invalid(param: FilterParam, detail: string): RestError {
    return new RestError('invalid-filter', detail, { source: { parameter: param.parameter } });
}

function splitValues(param: FilterParam): string[] {
    const parts = param.value.split(',');
    if (parts.length > MAX_FILTER_VALUES) {
        throw invalid(param, `at most ${MAX_FILTER_VALUES} comma-separated values per filter`);
    }
    return parts;
}

function checkProvider(param: FilterParam, op: string, def: OperatorDef, ctx: FilterContext): void {
    if (def.providers && !def.providers.has(ctx.provider)) {
        throw new RestError(
            'unsupported-feature',
            `the $${op} filter operator needs ${[...def.providers].join(' or ')}; this database is ${ctx.provider}`,
            { source: { parameter: param.parameter } },
        );
    }
    if (op === 'search') {
        const needed = SEARCH_PREVIEW[ctx.provider];
        if (needed && !needed.some((f) => ctx.previewFeatures.includes(f))) {
            throw new RestError(
                'unsupported-feature',
                `the $search filter operator needs the Prisma preview feature "${needed[0]}" enabled in the generator`,
                { source: { parameter: param.parameter } },
            );
        }
    }
}

function scalarCondition(field: ScalarField, param: FilterParam, ctx: FilterContext): Where {
    if (field.kind === 'Json') {
        return field.isArray ? jsonListCondition(field, param) : jsonCondition(field, param, ctx);
    }
    if (!isFilterable(field)) {
        throw invalid(param, `"${field.name}" (${field.type}) cannot be filtered`);
    }
    const typed = (text: string) => parseFilterValue(field, text, ctx.enumValues, param.parameter);
    if (param.op === undefined) {
        return equality({ field, values: splitValues(param).map(typed), flag: false, provider: ctx.provider });
    }
    const def = findOperator(param.op);
    if (!def) {
        throw invalid(param, `unknown filter operator "$${param.op}" (supported: ${OPERATOR_NAMES.join(' ')})`);
    }
    checkProvider(param, param.op, def, ctx);
    if (!!def.list !== field.isArray || (def.kinds && !def.kinds.has(field.kind))) {
        throw invalid(param, `$${param.op} (${def.describe}) does not apply to "${field.name}" (${field.type}${field.isArray ? '[]' : ''})`);
    }
    if (field.isUuid && readsText(def)) {
        // Prisma's filter of a @db.Uuid column has no text operators: refused here, naming the parameter
        throw invalid(param, `$${param.op} (${def.describe}) does not apply to "${field.name}": a uuid column compares whole values only`);
    }
    if (param.op === 'isNull' && !field.isOptional) {
        // Prisma refuses a null comparison on a required field: a 400 naming the parameter, not the client's message
        throw invalid(param, `$isNull does not apply to "${field.name}": it is a required field, never null`);
    }
    let values: unknown[] = [];
    let flag = false;
    switch (def.arity) {
        case 'flag':
            flag = parseBooleanFlag(param.value, param.parameter);
            break;
        case 'text':
            values = [typed(param.value)];
            break;
        case 'pair':
            values = splitValues(param).map(typed);
            if (values.length !== 2) {
                throw new RestError('invalid-value', `$${param.op} takes two comma-separated values (low,high)`, { source: { parameter: param.parameter } });
            }
            break;
        default:
            values = splitValues(param).map(typed);
    }
    return def.build({ field, values, flag, provider: ctx.provider });
}

/** The plain filter form of one related id (`{ id: 1 }`, or `{ a: 1, b: 2 }` for compound ids). */
function idFilter(target: RestModel, raw: string, param: FilterParam, ctx: FilterContext): Where {
    let unique: Where;
    try {
        unique = whereById(target, raw, ctx.idDivider);
    } catch (err) {
        if (err instanceof RestError) {
            throw new RestError('invalid-value', `invalid ${target.type} id "${raw}"`, { source: { parameter: param.parameter } });
        }
        throw err;
    }
    return target.idFields.length > 1 ? { ...(Object.values(unique)[0] as Where) } : unique;
}

/** Filters on a relationship itself: by related id (any-of), `$isNull` (to-one), `$isEmpty` (to-many). */
function relationCondition(rel: RestRelationship, param: FilterParam, ctx: FilterContext): Where {
    const name = rel.name;
    if (param.op === 'isNull' && !rel.isArray) {
        if (!rel.field.isOptional) {
            throw invalid(param, `$isNull does not apply to "${name}": it is a required relationship, never null`);
        }
        const isNull = parseBooleanFlag(param.value, param.parameter);
        // from the side without the key, to a model not everyone may read in full, in the form ZenStack guards: its
        // null conditions match by the related row whatever its read rule (`is: null` told who has a hidden profile)
        if (rel.field.nullMatchesHidden) return { [name]: isNull ? { isNot: {} } : { is: {} } };
        return isNull ? { [name]: { is: null } } : { [name]: { isNot: null } };
    }
    if (param.op === 'isEmpty' && rel.isArray) {
        return parseBooleanFlag(param.value, param.parameter) ? { [name]: { none: {} } } : { [name]: { some: {} } };
    }
    if (param.op !== undefined && param.op !== 'in') {
        throw invalid(param, `"${name}" is a relationship: filter it by id (filter[${name}]=id), with ${rel.isArray ? '$isEmpty' : '$isNull'}, or filter its fields (filter[${name}][field]=value)`);
    }
    const target = rel.target;
    const ids = splitValues(param).map((raw) => idFilter(target, raw, param, ctx));
    let match: Where;
    if (target.idFields.length === 1) {
        const idName = target.idFields[0].name;
        match = ids.length === 1 ? ids[0] : { [idName]: { in: ids.map((w) => w[idName]) } };
    } else {
        match = ids.length === 1 ? ids[0] : { OR: ids };
    }
    return { [name]: rel.isArray ? { some: match } : { is: match } };
}

function fragment(model: RestModel, param: FilterParam, index: number, ctx: FilterContext): Where {
    const name = param.selectors[index];
    const last = index === param.selectors.length - 1;
    // the resource `id` names the id field when the model has no field of that name (as in 2.x)
    const field = model.def.fields.get(name) ?? (name === 'id' && model.idFields.length === 1 ? model.idFields[0] : undefined);
    // @omit fields are never readable and ZenStack does not guard filters on them: they do not exist here
    if (!field || (!isRelation(field) && (field.kind === 'Unsupported' || field.omitted))) {
        throw invalid(param, `"${name}" is not a field of "${model.type}"`);
    }
    if (isRelation(field)) {
        const rel = model.relationships.get(name);
        if (!rel) {
            throw invalid(param, `"${name}" is not a relationship of "${model.type}"`);
        }
        if (last) {
            return relationCondition(rel, param, ctx);
        }
        const inner = fragment(rel.target, param, index + 1, ctx);
        return { [name]: rel.isArray ? { some: inner } : { is: inner } };
    }
    if (!last) {
        throw invalid(param, `"${name}" of "${model.type}" is not a relationship: it has no fields to filter by`);
    }
    return scalarCondition(field, param, ctx);
}

/** All filter parameters of a request for `model` → one `where` (undefined when there is none). */
export function buildFilter(model: RestModel, filters: readonly FilterParam[], ctx: FilterContext): Where | undefined {
    if (filters.length === 0) return undefined;
    if (filters.length > ctx.maxFilters) {
        throw new RestError('invalid-filter', `too many filter parameters (${filters.length}); the limit is ${ctx.maxFilters}`, { source: { parameter: 'filter' } });
    }
    for (const f of filters) {
        // each relationship in the path is a join or subquery: a long path makes one request arbitrarily expensive
        if (f.selectors.length - 1 > ctx.maxDepth) {
            throw invalid(f, `the filter goes through ${f.selectors.length - 1} relationships; the limit is ${ctx.maxDepth} (maxIncludeDepth)`);
        }
    }
    const parts = mergeFilters(model, filters.map((f) => fragment(model, f, 0, ctx)));
    const where = parts.length === 1 ? parts[0] : hoistConjunctions({ AND: parts });
    guardFilter(model, where, ctx);
    return where;
}

/**
 * The access policy guards a condition at the top of the filter and along relationship paths, not under
 * the AND, OR and NOT that combine filters (`common/filter-guard.ts`): the parameters are ANDed at the top
 * where their fields differ, merged where they name the same to-one relationship or different operators of
 * one field (`filter-merge.ts`); a repeated operator on a field with a read rule is guarded beside the one at the top
 * (`ruledFieldsNamed` in filter-guard.ts), and what is left under a combination (several values of an operator on
 * such a field, two paths through one to-many relationship to records with read rules) is a 400.
 */
function guardFilter(model: RestModel, where: Where, ctx: FilterContext): void {
    try {
        checkWhere({ registry: ctx.registry, model: model.def }, where);
    } catch (err) {
        if (!(err instanceof BadRequestError)) throw err;
        const detail = `${err.message} (several values of an operator on a field with read rules, or two filters through one to-many relationship to records with read rules, cannot be one guarded condition)`;
        throw new RestError('invalid-filter', detail, { source: { parameter: 'filter' } });
    }
}
