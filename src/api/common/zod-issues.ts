/** Zod issues (from the handlers' own validation, or carried by ZenStack's errors) in one flat shape. */

export interface ValidationIssue {
    /** Dotted path inside the arguments (`data.title`); empty for the arguments themselves. */
    path: string;
    message: string;
    code?: string;
}

export interface ZodIssueLike {
    code?: unknown;
    message?: unknown;
    path?: unknown;
    unionErrors?: unknown;
}

function issuesOf(error: unknown): ZodIssueLike[] {
    const issues = (error as { issues?: unknown } | null | undefined)?.issues;
    return Array.isArray(issues) ? (issues as ZodIssueLike[]) : [];
}

const MAX_ISSUES = 20;

/**
 * Flattens zod issues into `{ path, message, code }`. For a union that matched no branch, the
 * branch with the fewest issues is the likeliest intent: its issues are reported instead of a
 * bare "Invalid input".
 */
export function formatIssues(error: unknown, prefix: (string | number)[] = [], depth = 0): ValidationIssue[] {
    const out: ValidationIssue[] = [];
    for (const issue of issuesOf(error)) {
        const here = [...prefix, ...(Array.isArray(issue.path) ? (issue.path as (string | number)[]) : [])];
        if (issue.code === 'invalid_union' && Array.isArray(issue.unionErrors) && issue.unionErrors.length > 0 && depth < 8) {
            const best = (issue.unionErrors as unknown[])
                .map((branch) => issuesOf(branch))
                .filter((branchIssues) => branchIssues.length > 0)
                .sort((a, b) => a.length - b.length)[0];
            if (best) {
                out.push(...formatIssues({ issues: best }, prefix, depth + 1));
                continue;
            }
        }
        out.push({
            path: here.map(String).join('.'),
            message: typeof issue.message === 'string' ? issue.message : 'invalid value',
            code: typeof issue.code === 'string' ? issue.code : undefined,
        });
        if (out.length >= MAX_ISSUES) {
            break;
        }
    }
    return out.slice(0, MAX_ISSUES);
}

/** A ZodError as `JSON.stringify` writes it: what `@zenstackhq/server` 2.x answers as `zodErrors`. */
export interface ZodErrorJson {
    issues: unknown[];
    name: 'ZodError';
}

/** Most issues one `zodErrors` carries, counting those inside `unionErrors` (a nested union can multiply them). */
const MAX_RAW_ISSUES = 100;
/** Deepest nesting of objects copied into it (unions nest ZodErrors inside issues). */
const MAX_RAW_DEPTH = 12;

/**
 * The raw zod issues of `error` in the shape 2.x clients read (`zodErrors.issues[i].path` as an array,
 * `code`, `message` and the code's own members), copied to plain JSON: BigInt bounds as decimal
 * strings (a `z.bigint().min()` issue would make `JSON.stringify` throw), values with `toJSON`
 * (Date, Decimal, Buffer) as it renders them, functions dropped. Bounded in issues and depth, so that a
 * small request whose every union branch fails cannot make a large answer. `keep` filters the
 * top-level issues.
 */
export function zodErrorJson(error: unknown, keep?: (issue: ZodIssueLike) => boolean): ZodErrorJson | undefined {
    let budget = MAX_RAW_ISSUES;

    const copy = (value: unknown, depth: number): unknown => {
        if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
        if (typeof value === 'number') return Number.isFinite(value) ? value : null;
        if (typeof value === 'bigint') return value.toString();
        if (typeof value !== 'object' || depth >= MAX_RAW_DEPTH) return undefined;
        const toJSON = (value as { toJSON?: unknown }).toJSON;
        if (typeof toJSON === 'function') return copy(toJSON.call(value), depth + 1);
        if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1) ?? null);
        if (isZodErrorLike(value)) return errorCopy(value, depth + 1);
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(value)) {
            const item = copy((value as Record<string, unknown>)[key], depth + 1);
            if (item !== undefined) out[key] = item;
        }
        return out;
    };

    const errorCopy = (value: object, depth: number, filter?: (issue: ZodIssueLike) => boolean): ZodErrorJson => {
        const issues: unknown[] = [];
        for (const issue of issuesOf(value)) {
            if (budget <= 0) break;
            if (filter && !filter(issue)) continue;
            budget--;
            // past the depth bound an issue is left out: an `undefined` entry would reach the client as `null`
            const copied = copy(issue, depth + 1);
            if (copied !== undefined) issues.push(copied);
        }
        return { issues, name: 'ZodError' };
    };

    const result = errorCopy(error as object, 0, keep);
    return result.issues.length > 0 ? result : undefined;
}

/** A ZodError (or its JSON form) inside an issue: the entries of `unionErrors`. */
function isZodErrorLike(value: object): boolean {
    return Array.isArray((value as { issues?: unknown }).issues);
}
