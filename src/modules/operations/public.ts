/**
 * What other modules may use of the operations module (it owns locations, housing units, foster homes
 * and transports).
 */
export { checkAnimalLocation } from './housing.service.ts';
