import { getDefaultModelMeta, getDefaultZodSchemas } from '../../common/defaults';
import type { RestRequest } from '../request';

export { providerOf } from '../../common/isolation';

/** The preview features a client was generated with. */
export function previewFeaturesOf(prisma: unknown): readonly string[] {
    const f = (prisma as { _previewFeatures?: unknown } | null)?._previewFeatures;
    return Array.isArray(f) ? (f as string[]) : [];
}

/**
 * The values of an enum, from the zod schemas of the request (or the default generated ones when
 * the request also uses the default model metadata); undefined when unknown.
 */
export function enumValuesFor(req: RestRequest, enumName: string): readonly string[] | undefined {
    const zod = req.zodSchemas ?? (req.schema.modelMeta === getDefaultModelMeta() ? getDefaultZodSchemas() : undefined);
    const enums = (zod as { enums?: Record<string, unknown> } | undefined)?.enums;
    const schema = enums?.[`${enumName}Schema`] as { options?: unknown } | undefined;
    const options = schema?.options;
    return Array.isArray(options) && options.every((o) => typeof o === 'string') ? (options as string[]) : undefined;
}
