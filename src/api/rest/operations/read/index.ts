// Owned by the REST reads work: each route export serves one read route (see ../../router.ts); the
// document functions are what writes answer with.
export { listResources } from './collection';
export { fetchResource, readResourceDocument, renderResourceDocument } from './resource';
export { fetchRelated, fetchRelatedById } from './related';
export { fetchRelationship, relationshipDocument } from './relationship';
export { parseDocumentQuery } from '../../query/read-query';
