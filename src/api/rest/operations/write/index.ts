// Owned by the REST writes work: each export serves one write route (see ../../router.ts).
export { createResource, updateResource, deleteResource } from './resource';
export { addToRelationship, replaceRelationship, removeFromRelationship } from './relationship';
