import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { toOneData } from './write-walk';

/** The data of every record an operation's arguments write, nested writes included. */

type Data = Record<string, unknown>;

export interface WriteRecord {
    model: ModelDef;
    data: Data;
    /** Dotted path of `data` from the arguments (`data.posts.create.0`), as serialization paths are written. */
    path: string;
    /** The record is created (`create`, `createMany`, an upsert's or `connectOrCreate`'s `create`), else updated. */
    created: boolean;
}

const at = (path: string, key: string | number) => `${path}.${key}`;

/** A to-one nested `update`'s data (`toOneData`) and its path. */
function toOneUpdate(target: ModelDef, value: unknown, path: string): [unknown, string] {
    const data = toOneData(target, value);
    return [data, data === value ? path : at(path, 'data')];
}

function visit(registry: ModelRegistry, model: ModelDef, value: unknown, path: string, created: boolean, out: WriteRecord[]): void {
    if (!isObject(value)) return;
    out.push({ model, data: value, path, created });
    for (const [key, ops] of Object.entries(value)) {
        const relation = model.relations.get(key);
        const target = relation && registry.models.get(relation.targetKey);
        if (!relation || !target || !isObject(ops)) continue;
        const base = at(path, key);
        const each = (op: string, fn: (item: unknown, itemPath: string) => void) => {
            const items = ops[op];
            if (Array.isArray(items)) items.forEach((item, i) => fn(item, at(at(base, op), i)));
            else if (items !== undefined) fn(items, at(base, op));
        };
        each('create', (item, p) => visit(registry, target, item, p, true, out));
        if (isObject(ops.createMany)) {
            const rows = ops.createMany.data;
            const p = at(at(base, 'createMany'), 'data');
            if (Array.isArray(rows)) rows.forEach((row, i) => visit(registry, target, row, at(p, i), true, out));
            else visit(registry, target, rows, p, true, out);
        }
        each('connectOrCreate', (item, p) => isObject(item) && visit(registry, target, item.create, at(p, 'create'), true, out));
        each('upsert', (item, p) => {
            if (!isObject(item)) return;
            visit(registry, target, item.create, at(p, 'create'), true, out);
            visit(registry, target, item.update, at(p, 'update'), false, out);
        });
        each('updateMany', (item, p) => isObject(item) && visit(registry, target, item.data, at(p, 'data'), false, out));
        if (relation.isArray) each('update', (item, p) => isObject(item) && visit(registry, target, item.data, at(p, 'data'), false, out));
        else if (ops.update !== undefined) visit(registry, target, ...toOneUpdate(target, ops.update, at(base, 'update')), false, out);
    }
}

/** Every record written by an operation's arguments, outer ones first. */
export function writeRecords(registry: ModelRegistry, model: ModelDef, op: string, args: Args): WriteRecord[] {
    const out: WriteRecord[] = [];
    const top = (value: unknown, path: string, created: boolean) => {
        if (Array.isArray(value)) value.forEach((item, i) => visit(registry, model, item, at(path, i), created, out));
        else visit(registry, model, value, path, created, out);
    };
    if (op === 'create' || op === 'createMany' || op === 'createManyAndReturn') top(args.data, 'data', true);
    else if (op === 'update' || op === 'updateMany' || op === 'updateManyAndReturn') top(args.data, 'data', false);
    else if (op === 'upsert') {
        top(args.create, 'create', true);
        top(args.update, 'update', false);
    }
    return out;
}
