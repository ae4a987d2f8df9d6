/**
 * What other modules may use of the care module (it owns notes, nutrition plans, bonds, mothers, litters,
 * tags, breeds, age groups and behaviour attributes).
 */
export { bondedWarnings, type BondWarning } from './relations.service.ts';
