import type { ZodSchemas } from '@zenstackhq/runtime';

/**
 * Input validation with ZenStack's generated zod schemas
 * (`zodSchemas.input[<Model>InputSchema][<operation>]`), before the client is called.
 */

export interface ValidationIssue {
    /** Dotted path inside the arguments (`data.title`); empty for the arguments themselves. */
    path: string;
    message: string;
    code?: string;
}

/** Arguments rejected by the zod schemas: answered 422 with `rejectedByValidation`. */
export class InputValidationError extends Error {
    constructor(
        message: string,
        readonly issues: ValidationIssue[],
    ) {
        super(message);
        this.name = 'InputValidationError';
    }
}

interface SafeParser {
    safeParse(value: unknown): { success: boolean; error?: unknown };
}

interface ZodIssueLike {
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

/** A one-line summary of issues for the error message. */
export function summarizeIssues(issues: readonly ValidationIssue[]): string {
    if (issues.length === 0) {
        return 'invalid arguments';
    }
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    return `invalid arguments: ${first.path ? `${first.path}: ` : ''}${first.message}${more}`;
}

function findSchema(zodSchemas: ZodSchemas, modelName: string, operation: string): SafeParser | undefined {
    const input = (zodSchemas as { input?: Record<string, unknown> }).input;
    if (!input || !Object.prototype.hasOwnProperty.call(input, `${modelName}InputSchema`)) {
        return undefined;
    }
    const forModel = input[`${modelName}InputSchema`] as Record<string, unknown> | undefined;
    if (!forModel || !Object.prototype.hasOwnProperty.call(forModel, operation)) {
        return undefined;
    }
    const schema = forModel[operation] as SafeParser | undefined;
    return schema && typeof schema.safeParse === 'function' ? schema : undefined;
}

/**
 * Validates the arguments of `operation` on `modelName` (schema name, `Post`); throws
 * InputValidationError when they do not pass. Operations without a schema (e.g. `check`,
 * `createManyAndReturn`) pass unvalidated.
 */
export function validateArgs(zodSchemas: ZodSchemas | undefined, modelName: string, operation: string, args: unknown): void {
    if (!zodSchemas) {
        return;
    }
    const schema = findSchema(zodSchemas, modelName, operation);
    if (!schema) {
        return;
    }
    const result = schema.safeParse(args);
    if (!result.success) {
        const issues = formatIssues(result.error);
        throw new InputValidationError(summarizeIssues(issues), issues);
    }
}
