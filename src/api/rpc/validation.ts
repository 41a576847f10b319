import type { ZodSchemas } from '@zenstackhq/runtime';
import { formatIssues, zodErrorJson, type ValidationIssue, type ZodErrorJson } from '../common/zod-issues';
import { keepLazySchemas } from './zod-lazy';

export { formatIssues, type ValidationIssue } from '../common/zod-issues';

/**
 * Input validation with ZenStack's generated zod schemas
 * (`zodSchemas.input[<Model>InputSchema][<operation>]`), before the client is called.
 */

/** Arguments rejected by the zod schemas: answered 422 with `rejectedByValidation`. */
export class InputValidationError extends Error {
    constructor(
        message: string,
        readonly issues: ValidationIssue[],
        /** The raw issues, as 2.x answered them. */
        readonly zodErrors?: ZodErrorJson,
    ) {
        super(message);
        this.name = 'InputValidationError';
    }
}

interface SafeParser {
    safeParse(value: unknown): { success: boolean; error?: unknown };
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
    // once per schema: its lazy parts stop building new schemas on every parse (zod-lazy.ts)
    keepLazySchemas(schema);
    const result = schema.safeParse(args);
    if (!result.success) {
        const issues = formatIssues(result.error);
        throw new InputValidationError(summarizeIssues(issues), issues, zodErrorJson(result.error));
    }
}
