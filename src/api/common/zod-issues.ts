/** Zod issues (from the handlers' own validation, or carried by ZenStack's errors) in one flat shape. */

export interface ValidationIssue {
    /** Dotted path inside the arguments (`data.title`); empty for the arguments themselves. */
    path: string;
    message: string;
    code?: string;
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
