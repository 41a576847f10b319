// JSON:API request bodies → Prisma write arguments (pure: no database access).
export { parseResourceWrite, parseRelationshipWrite, type PayloadOptions, type ResourceWrite, type WriteMode } from './resource';
export { validateWrite } from './validate';
export { convertAttribute, type EnumLookup, type JsonNullLookup, type ValueContext } from './values';
export { parseIdentifier, parseLinkage, whereKey, type ResolvedIdentifier, type RelationshipLinkage } from './identifiers';
export { linkageToPrisma, ownerLinkFromForeignKeys, uniqueWhereOf, type LinkOperation } from './relations';
export { escapePointerToken, payloadError, pointerTo } from './pointer';
