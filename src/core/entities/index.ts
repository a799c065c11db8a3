export {
  canonicalEntityKey,
  entityHash,
  addMentionCounts,
  entityNodeOf,
  entityNodeOfCounts,
  mentionCounts,
  mentionRows,
  type EntityMentionRow,
  type EntityNode,
  type MentionCounts,
} from './canonical';
export { entityLookupFromMap, expandByEntities, type EntityLookup, type ExpandOptions, type ExpansionHit } from './expand';
