import type { ModelMeta } from '@zenstackhq/runtime';
import { removeHiddenFields } from '../../src/api/common/delegate-fields';
import { descendantsOf, getModelRegistry, type ModelDef, type ModelRegistry } from '../../src/api/common/model-registry';
import { normalizeOptions } from '../../src/api/rest/options';
import { buildRestSchema } from '../../src/api/rest/schema';

/**
 * What the handlers derive once per schema must grow linearly with the schema: a serverless platform derives it on
 * every cold start, and real schemas have hundreds of models. Counted, not timed: reads of a model's `baseTypes` and
 * `relations` while the REST view and the RPC handler's view of delegated fields are built. The metadata is made here
 * in ZenStack's format (what `zenstack generate` writes for each field) because generating a schema of hundreds of
 * models takes minutes: a chain of `count` models, each with a to-one `next` and the to-many `prev` back, whose last
 * model is a `@@delegate` base that `Sub` extends with a field nobody may read.
 */

const COUNT = 300;

function chainMeta(count: number): ModelMeta {
    const id = { name: 'id', type: 'Int', isId: true, attributes: [] };
    const models: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) {
        const fields: Record<string, unknown> = { id };
        if (i + 1 < count) {
            fields.next = { name: 'next', type: `M${i + 1}`, isDataModel: true, isOptional: true, isRelationOwner: true, backLink: 'prev', foreignKeyMapping: { id: 'nextId' } };
            fields.nextId = { name: 'nextId', type: 'Int', isOptional: true, isForeignKey: true, relationField: 'next', attributes: [] };
        }
        if (i > 0) fields.prev = { name: 'prev', type: `M${i - 1}`, isDataModel: true, isArray: true, backLink: 'next' };
        models[`m${i}`] = { name: `M${i}`, fields, uniqueConstraints: { id: { name: 'id', fields: ['id'] } }, attributes: [] };
    }
    const base = models[`m${count - 1}`] as { attributes: unknown[]; fields: Record<string, unknown> };
    base.attributes = [{ name: '@@delegate', args: [{ value: 'kind' }] }];
    base.fields.kind = { name: 'kind', type: 'String', attributes: [] };
    models.sub = {
        name: 'Sub',
        baseTypes: [`M${count - 1}`],
        fields: { id, kind: base.fields.kind, secret: { name: 'secret', type: 'String', attributes: [{ name: '@deny', args: [{ value: 'read' }, { value: true }] }] } },
        uniqueConstraints: { id: { name: 'id', fields: ['id'] } },
        attributes: [],
    };
    return { models, deleteCascade: {} } as unknown as ModelMeta;
}

/** Counts reads of `property` of every model of the registry from now on. */
function countReads(registry: ModelRegistry, property: 'baseTypes' | 'relations'): { reads: number } {
    const counter = { reads: 0 };
    for (const model of registry.models.values()) {
        const value = model[property];
        Object.defineProperty(model as ModelDef, property, {
            get() {
                counter.reads++;
                return value;
            },
        });
    }
    return counter;
}

describe(`deriving a schema of ${COUNT + 1} models`, () => {
    it("the REST view finds each model's descendants without scanning every model for each", () => {
        const meta = chainMeta(COUNT);
        const registry = getModelRegistry(meta);
        const counter = countReads(registry, 'baseTypes');
        const schema = buildRestSchema(meta, normalizeOptions({ endpoint: 'http://localhost/api' }));
        // a scan of every model per model read them (COUNT + 1)^2 = 90,601 times
        expect(counter.reads).toBeLessThanOrEqual(2 * (COUNT + 1));
        expect(schema.byKey.get(`m${COUNT - 1}`)?.descendants.map((m) => m.type)).toEqual(['sub']);
        expect(descendantsOf(registry, registry.models.get('m0') as ModelDef)).toEqual([]);
    });

    it('the RPC handler finds the models whose results can hold a hidden concrete field by following each relation back once', () => {
        const registry = getModelRegistry(chainMeta(COUNT));
        const counter = countReads(registry, 'relations');
        // the first model's results reach the base at the other end of the chain, through `next` after `next`
        const record: Record<string, unknown> = { id: 0 };
        let at = record;
        for (let i = 1; i < COUNT; i++) {
            at.next = { id: i };
            at = at.next as Record<string, unknown>;
        }
        Object.assign(at, { kind: 'Sub', secret: 'hidden' });
        removeHiddenFields(registry, registry.models.get('m0') as ModelDef, record);
        expect(at).toEqual({ id: COUNT - 1, kind: 'Sub' });
        // a pass over every model until none was added read them once per model per pass: COUNT passes here
        expect(counter.reads).toBeLessThanOrEqual(3 * (COUNT + 1));
    });
});
