export {
  canonicalEntityKey,
  entityHash,
  entityNodeOf,
  mentionRows,
  type EntityMentionRow,
  type EntityNode,
} from './canonical';
export { entityLookupFromMap, expandByEntities, type EntityLookup, type ExpandOptions, type ExpansionHit } from './expand';
